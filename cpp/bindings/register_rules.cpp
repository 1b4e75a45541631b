// Rulesets: RulesConfig, the plain data every table is built from, and the
// enums of its options (and of partition's objective), each member named
// as the option string the Python layer takes.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "convert.hpp"
#include "prial/partition.hpp"
#include "prial/rules.hpp"
#include "register.hpp"

namespace prial::bindings {
namespace {

// The Python name of each enum value: the option strings of prial.Rules
// and prial.partition, bound as the enums' member names.
template <class Enum>
using EnumNames = std::initializer_list<std::pair<const char*, Enum>>;
const EnumNames<AceTwoThree> kAceTwoThree = {
    {"top", AceTwoThree::Top}, {"second", AceTwoThree::Second}, {"bottom", AceTwoThree::Bottom}};
const EnumNames<TopPrial> kTopPrial = {{"three", TopPrial::Three}, {"ace", TopPrial::Ace}};
const EnumNames<WildTies> kWildTies = {
    {"natural_wins", WildTies::NaturalWins}, {"equal", WildTies::Equal}, {"natural_prials", WildTies::NaturalPrials}};
const EnumNames<WildAsItself> kWildAsItself = {{"wild", WildAsItself::Wild}, {"natural", WildAsItself::Natural}};
const EnumNames<Objective> kObjectives = {
    {"lexicographic", Objective::Lexicographic}, {"expected_points", Objective::ExpectedPoints}};

template <class Enum>
void bind_enum(py::module_& m, const char* name, const char* doc, const EnumNames<Enum>& names) {
  py::enum_<Enum> e(m, name, doc);
  for (const auto& [value_name, value] : names) e.value(value_name, value);
}

}  // namespace

Objective objective_from(const py::handle& value) {
  if (py::isinstance<Objective>(value)) return value.cast<Objective>();
  const std::string name = py::str(value).cast<std::string>();
  if (PyUnicode_Check(value.ptr())) {
    for (const auto& [value_name, objective] : kObjectives) {
      if (name == value_name) return objective;
    }
  }
  throw InvalidHand("objective must be 'lexicographic' or 'expected_points', got '" + name + "'");
}

void register_rules(py::module_& m) {
  bind_enum(m, "AceTwoThree", "Where A-2-3 ranks among the runs: 'top', 'second' or 'bottom'.", kAceTwoThree);
  bind_enum(m, "TopPrial", "The top prial: 'three' (three threes) or 'ace' (three aces).", kTopPrial);
  bind_enum(m, "WildTies", "A wild hand against the same natural hand: 'natural_wins', 'equal' or 'natural_prials'.", kWildTies);
  bind_enum(m, "WildAsItself", "A wild card standing for itself: still 'wild', or 'natural' for the wild ties.",
            kWildAsItself);
  bind_enum(m, "Objective", "What partition maximizes: 'lexicographic' or 'expected_points'.", kObjectives);

  py::class_<RulesConfig>(m, "RulesConfig", "One fully resolved ruleset, the plain data every table is built from.")
      .def(py::init([](AceTwoThree ace_two_three, TopPrial top_prial, bool running_flush_over_prial, bool lowball,
                       std::uint64_t wild_mask, int jokers, WildTies wild_ties, WildAsItself wild_as_itself,
                       std::array<std::uint8_t, 4> suit_rank, bool runs_and_flushes,
                       std::uint64_t lesser_wild_mask) {
             RulesConfig r;
             r.ace_two_three = ace_two_three;
             r.top_prial = top_prial;
             r.running_flush_over_prial = running_flush_over_prial;
             r.lowball = lowball;
             r.wild_mask = wild_mask;
             r.jokers = jokers;
             r.wild_ties = wild_ties;
             r.wild_as_itself = wild_as_itself;
             r.suit_rank = suit_rank;
             r.runs_and_flushes = runs_and_flushes;
             r.lesser_wild_mask = lesser_wild_mask;
             r.validate();
             return r;
           }),
           py::kw_only(), py::arg("ace_two_three"), py::arg("top_prial"), py::arg("running_flush_over_prial"),
           py::arg("lowball"), py::arg("wild_mask"), py::arg("jokers"), py::arg("wild_ties"),
           py::arg("wild_as_itself"), py::arg("suit_rank"), py::arg("runs_and_flushes") = true,
           py::arg("lesser_wild_mask") = 0,
           "__init__(self, *, ace_two_three, top_prial, running_flush_over_prial, lowball, wild_mask, jokers, "
           "wild_ties, wild_as_itself, suit_rank, runs_and_flushes=True, lesser_wild_mask=0)\n--\n\n"
           "A ruleset: the enums' members, wild_mask bit i for card i wild (0..51), jokers 0..3, suit_rank[s] "
           "the place of suit s (0 = clubs .. 3 = spades) in the suit order, 3 highest (all 0: no suit order); "
           "runs_and_flushes False makes runs and flushes high cards (classic Brag); lesser_wild_mask: the wild "
           "cards that lose an otherwise equal tie to the other wild cards.");
}

}  // namespace prial::bindings
