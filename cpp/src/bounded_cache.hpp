// A process-wide cache of immutable tables shared by key (internal): the
// three-card tables (tables.cpp) and the best-of tables (bestof.cpp) of
// each ruleset.
#pragma once

#include <cstddef>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>

namespace prial {

// Bounded: once it holds `limit` entries, the tables no caller holds any
// more (their only owner is the cache) are dropped before the next one is
// added, so a caller cycling through rulesets cannot grow it without end
// while tables in use stay shared.
template <class Key, class Value>
class BoundedCache {
 public:
  explicit BoundedCache(std::size_t limit) : limit_(limit) {}

  // The table of `key`, made by make() -> shared_ptr<const Value> (under
  // the lock: two callers never build the same table twice) if missing.
  template <class Make>
  std::shared_ptr<const Value> get(const Key& key, const Make& make) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.size() >= limit_) {
      for (auto it = entries_.begin(); it != entries_.end();) {
        it = it->second.use_count() == 1 ? entries_.erase(it) : std::next(it);
      }
    }
    auto& entry = entries_[key];
    if (!entry) entry = make();
    return entry;
  }

 private:
  const std::size_t limit_;
  std::mutex mutex_;
  std::map<Key, std::shared_ptr<const Value>> entries_;
};

}  // namespace prial
