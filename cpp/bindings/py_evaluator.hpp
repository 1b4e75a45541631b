// The evaluator as Python sees it (_core.Evaluator): the C++ Evaluator and
// best-of table of one ruleset, plus caches of the Python objects its
// results are made of.  Bound in register_evaluator.cpp; every operation
// on it is a module function taking it first (register_evaluator.cpp,
// register_play.cpp, register_service.cpp).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "convert.hpp"
#include "prial/bestof.hpp"
#include "prial/cancel.hpp"
#include "prial/evaluator.hpp"
#include "prial/partition.hpp"

namespace prial::bindings {

class PyEvaluator {
 public:
  explicit PyEvaluator(const RulesConfig& rules);
  ~PyEvaluator();
  PyEvaluator(const PyEvaluator&) = delete;
  PyEvaluator& operator=(const PyEvaluator&) = delete;

  // Bytes the evaluators alive hold beside their ruleset's tables: the
  // per-slot cache of descriptions and the descriptions made (170 KB and
  // more an evaluator, as much as a ruleset's three-card tables), counted
  // with the tables (live_table_bytes) by the cache of rulesets.
  static std::size_t live_bytes() noexcept;

  py::object evaluate(const py::handle& hand);
  // The batches take `cancel`: a CancelFlag (or nullptr) that stops the
  // work from another thread (CancelledError).
  py::array_t<Strength> evaluate_batch(const py::object& hands, const py::object& threads,
                                       const CancelFlag* cancel);
  py::object best_of(const py::handle& hand);
  py::array_t<BestKey> best_of_batch(const py::object& hands, const py::object& threads, const CancelFlag* cancel);
  py::object partition(const py::handle& hand, const py::object& hands, const py::object& objective,
                       const py::object& min_category, const py::object& opponents, double crash_value,
                       const py::object& four_order);
  py::tuple partition_batch(const py::object& deals, const py::object& hands, const py::object& objective,
                            const py::object& min_category, const py::object& opponents, double crash_value,
                            const py::object& four_order, const py::object& threads, const CancelFlag* cancel);

  int classes() const { return ev_.table().classes(); }
  std::size_t slots() const { return ev_.table().slots(); }
  int pack_size() const { return ev_.table().pack_size(); }
  // Read-only uint8 array: the Category code of every strength (made once).
  py::array categories();
  // The same codes for C++ (index 0 unused).
  const std::vector<std::uint8_t>& category_codes() const noexcept { return category_codes_; }
  // The registered Category members, strongest first.
  py::list category_order() const;

  const Evaluator& core() const noexcept { return ev_; }
  const BestOfTable& best_of_table() const noexcept { return *best_of_; }

  // The description of a three-card slot as a str, made on first use.
  py::object description(std::uint32_t slot) {
    py::object& d = descriptions_[slot];
    if (!d) {
      const std::string text = ev_.table().description(slot);
      d = py::str(text);
      count(sizeof(PyASCIIObject) + text.size() + 1);
    }
    return d;
  }
  py::object category(std::uint32_t slot) const { return category_object(ev_.table().category(slot)); }

 private:
  // One Partitioner per option set, kKeptPartitioners option sets kept at
  // most: its minimum-category threshold and opponent model are then found
  // once.  Bounded, since callers choose the options (every crash_value and
  // four_order is an option set of its own); shared, so that one in use outlives its
  // place here.
  static constexpr std::size_t kKeptPartitioners = 16;
  std::shared_ptr<const Partitioner> partitioner(int cards, int hands, const py::object& objective,
                                                 const py::object& min_category, int opponents, double crash_value,
                                                 const py::object& four_order);

  void count(std::size_t bytes) noexcept;  // held from now until the evaluator goes

  Evaluator ev_;
  std::shared_ptr<const BestOfTable> best_of_;
  std::size_t own_bytes_ = 0;
  std::vector<py::object> descriptions_;
  std::vector<std::uint8_t> category_codes_;
  py::object categories_;
  std::map<std::tuple<int, int, int, int, int, double, int>, std::shared_ptr<const Partitioner>> partitioners_;
};

}  // namespace prial::bindings
