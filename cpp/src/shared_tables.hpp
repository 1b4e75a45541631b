// A process-wide registry of immutable tables shared by key (internal): the
// three-card tables (tables.cpp), the best-of tables (bestof.cpp) of each
// ruleset and the partition opponent models (partition.cpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>

namespace prial {

// Bytes of every ruleset table alive (live_table_bytes(), tables.hpp): each
// table adds what it holds as it builds it and takes it off when freed.
inline std::atomic<std::size_t> g_live_table_bytes{0};

// Shared, never kept: a key's table is built once and handed to every caller
// while any of them still holds it, and freed when the last one lets go.
// Which tables stay is their holders' choice, so that one byte-bounded cache
// (prial/evaluator.py, the evaluators of Python and of the service) bounds
// them all: a registry that kept tables itself would keep them past that
// bound, and a caller cycling through rulesets would grow it with them.
template <class Key, class Value>
class SharedTables {
 public:
  // The table of `key`, made by make() -> shared_ptr<const Value> (under
  // the lock: two callers never build the same table twice) if no one
  // holds it.
  template <class Make>
  std::shared_ptr<const Value> get(const Key& key, const Make& make) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto held = entries_[key].lock()) return held;
    // Keys whose tables are gone go on a miss: the map holds no more keys
    // than there are tables alive.
    for (auto it = entries_.begin(); it != entries_.end();) {
      it = it->second.expired() ? entries_.erase(it) : std::next(it);
    }
    std::shared_ptr<const Value> made = make();
    entries_[key] = made;
    return made;
  }

 private:
  std::mutex mutex_;
  std::map<Key, std::weak_ptr<const Value>> entries_;
};

}  // namespace prial
