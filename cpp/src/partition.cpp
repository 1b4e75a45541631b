#include "prial/partition.hpp"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <tuple>

#include "parallel.hpp"
#include "portable.hpp"
#include "prial/bestof.hpp"
#include "prial/evaluator.hpp"
#include "shared_tables.hpp"
#include "splitmix.hpp"

namespace prial {
namespace {

constexpr int kMaxTriples = 455;  // C(15, 3)
// Deals below which another thread costs more than it saves.
constexpr std::size_t kMinDealsPerThread = 64;
// Deals between cancellation checks: ~0.5 ms on one core for 13 cards into 4
// hands by expected points (16 us a deal), a few ms for the costliest
// (15 cards into 5 hands with wild cards).
constexpr std::size_t kSplitChunk = 32;
// Deals validated between cancellation checks (~0.1 us a deal).
constexpr std::size_t kValidateChunk = std::size_t{1} << 16;

struct TriplePositions {
  std::uint16_t mask;
  std::array<std::uint8_t, 3> at;  // increasing positions
};

// Every triple of positions 0..14 in colex order, so the first C(n, 3) are
// exactly the triples of an n-card deal.
const std::array<TriplePositions, kMaxTriples>& triple_positions() {
  static const auto triples = [] {
    std::array<TriplePositions, kMaxTriples> t{};
    int i = 0;
    for (int c = 2; c < kMaxPartitionCards; ++c)
      for (int b = 1; b < c; ++b)
        for (int a = 0; a < b; ++a) {
          t[i++] = {static_cast<std::uint16_t>((1u << a) | (1u << b) | (1u << c)),
                    {static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b),
                     static_cast<std::uint8_t>(c)}};
        }
    return t;
  }();
  return triples;
}

using Tuple = std::array<Strength, kMaxPartitionHands>;
using Path = std::array<int, kMaxPartitionHands>;  // indices into the sorted candidates

// componentwise a >= b over the first k places
bool covers(const Tuple& a, const Tuple& b, int k) {
  for (int i = 0; i < k; ++i) if (a[i] < b[i]) return false;
  return true;
}

// A set of indices into a deal's sorted triples.
class Triples {
 public:
  void set(int i) { words_[i >> 6] |= std::uint64_t{1} << (i & 63); }
  // This set less the union of three others.
  Triples without(const Triples& a, const Triples& b, const Triples& c) const {
    Triples t;
    for (int w = 0; w < kWords; ++w) t.words_[w] = words_[w] & ~(a.words_[w] | b.words_[w] | c.words_[w]);
    return t;
  }
  // The first member >= from, or -1.
  int next(int from) const {
    int w = from >> 6;
    if (w >= kWords) return -1;
    std::uint64_t bits = words_[w] & (~std::uint64_t{0} << (from & 63));
    while (bits == 0) {
      if (++w == kWords) return -1;
      bits = words_[w];
    }
    return (w << 6) + static_cast<int>(portable::lowest_bit(bits));
  }

 private:
  static constexpr int kWords = (kMaxTriples + 63) / 64;
  std::array<std::uint64_t, kWords> words_{};
};

// One deal: its formable hands sorted strongest first, and both searches.
class Search {
 public:
  Search(const ThreeCardTable& table, int hands, Strength threshold, const Card* cards, int n)
      : n_(n), k_(hands), remember_visits_(table.rules().has_wilds()) {
    std::copy(cards, cards + n, cards_.begin());
    std::sort(cards_.begin(), cards_.begin() + n);
    const auto& positions = triple_positions();
    const int triples = static_cast<int>(kBinomial(n, 3));
    // strength in the high bits, the triple's index in the low: one sort
    // gives strongest first, ties in a fixed order.
    std::array<std::uint32_t, kMaxTriples> order;
    for (int t = 0; t < triples; ++t) {
      const auto& p = positions[t].at;
      const std::uint32_t slot = three_card_slot(cards_[p[0]], cards_[p[1]], cards_[p[2]]);
      const Strength s = table.strength(slot);
      if (s >= threshold) order[count_++] = (static_cast<std::uint32_t>(s) << 16) | (kMaxTriples - t);
    }
    std::sort(order.begin(), order.begin() + count_, std::greater<std::uint32_t>());
    for (int i = 0; i < count_; ++i) {
      const int t = kMaxTriples - static_cast<int>(order[i] & 0xFFFFu);
      mask_[i] = positions[t].mask;
      strength_[i] = static_cast<Strength>(order[i] >> 16);
      triple_[i] = t;
    }
  }

  // Largest strength tuple lexicographically.
  Split lexicographic() {
    have_best_ = false;
    lex(0, 0);
    Split s = make_split(best_path_, best_depth_);
    s.candidates = leaves_;
    return s;
  }

  // The Pareto frontier of strength tuples among the splits whose hands
  // use every card of `required` (a mask of positions in the sorted deal);
  // returns its size.
  int frontier(unsigned required = 0) {
    frontier_.clear();
    required_ = required;
    search_id_ = next_search_id();  // visits of an earlier search are stale
    front(0, 0, 0, all_triples());
    return static_cast<int>(frontier_.size());
  }

  // The best split under score(tuple, cards used) over the plain frontier
  // and the frontier of each constraint in `required` (searched in order).
  // Exact for any score that is monotone in the tuple plus a bonus fixed by
  // which of the required sets the split uses: the best split using set q
  // is covered by a point of q's frontier, which uses q too.
  template <class Score>
  Split best_on_frontiers(Score&& score, const unsigned* required, int constraints) {
    Best best;
    int size = 0;
    for (int c = -1; c < constraints; ++c) {
      size += frontier(c < 0 ? 0u : required[c]);
      for (const Point& p : frontier_) best.offer(score(p.tuple, used_by(p)), p);
    }
    Split s = make_split(best.point.path, best.point.depth);
    s.expected_points = best.score;
    s.candidates = size;
    return s;
  }

  // The same split as best_on_frontiers with no constraints, for a score of
  // the tuple alone, without building the frontier: the walk is the same,
  // but a branch stops once `score` of its best completion falls short of
  // the best split found.  Same answer: the best tuple (the
  // lexicographically largest of the best scores) lies on the frontier, and
  // both searches keep the first split met with it.
  template <class Score>
  Split best_by_bound(Score&& score) {
    Best best;
    required_ = 0;
    search_id_ = next_search_id();
    walk(0, 0, 0, all_triples(),
         [&](int depth, unsigned) {
           const Tuple t = current(depth);
           best.offer(score(t), {t, path_, depth});
         },
         // Slack far above the tie tolerance: a pruned split could not even tie.
         [&](const Tuple& bound) { return best.have && score(bound) < best.score - 1e-9; });
    Split s = make_split(best.point.path, best.point.depth);
    s.expected_points = best.score;
    return s;
  }

  // Mask of the sorted-deal positions holding the cards in `cards` (all present).
  unsigned positions_of(const std::array<Card, 4>& cards) const {
    unsigned mask = 0;
    for (Card c : cards)
      for (int i = 0; i < n_; ++i) if (cards_[i] == c) mask |= 1u << i;
    return mask;
  }

 private:
  struct Point {
    Tuple tuple;
    Path path;
    int depth;
  };

  // The best point offered so far.  Ties: the lexicographically larger
  // tuple, then the one offered first, so the answer is fixed.
  struct Best {
    bool have = false;
    double score = -1;
    Point point{};
    void offer(double v, const Point& p) {
      if (!have || v > score + 1e-12 || (std::abs(v - score) <= 1e-12 && p.tuple > point.tuple)) {
        point = p;
        score = v;
        have = true;
      }
    }
  };

  int first_disjoint(int from, unsigned used) const {
    for (int i = from; i < count_; ++i) if ((mask_[i] & used) == 0) return i;
    return -1;
  }

  Tuple current(int depth) const {
    Tuple t{};
    for (int i = 0; i < depth && i < kMaxPartitionHands; ++i) t[i] = strength_[path_[i]];
    return t;
  }

  // Exact: the strongest next hand, following every triple that ties for it;
  // a branch whose prefix already falls behind the best found stops.
  void lex(int depth, unsigned used) {
    const int first = depth < k_ ? first_disjoint(0, used) : -1;
    if (first < 0) {
      ++leaves_;
      const Tuple t = current(depth);
      if (!have_best_ || t > best_tuple_) {
        best_tuple_ = t;
        best_path_ = path_;
        best_depth_ = depth;
        have_best_ = true;
      }
      return;
    }
    const Strength s = strength_[first];
    if (have_best_ && depth < kMaxPartitionHands) {  // always: depth < k_ here
      Tuple prefix = current(depth);
      prefix[depth] = s;
      for (int i = 0; i <= depth; ++i) {
        if (prefix[i] != best_tuple_[i]) {
          if (prefix[i] < best_tuple_[i]) return;
          break;
        }
      }
    }
    for (int j = first; j < count_ && strength_[j] == s; ++j) {
      if (mask_[j] & used) continue;
      path_[depth] = j;
      lex(depth + 1, used | mask_[j]);
    }
  }

  // Every triple, with the sets by card the walk removes; built on first
  // use, as the lexicographic search needs none of it.
  const Triples& all_triples() {
    if (!indexed_) {
      const auto& positions = triple_positions();
      for (int i = 0; i < count_; ++i) {
        for (int c : positions[triple_[i]].at) containing_[c].set(i);
        all_.set(i);
      }
      indexed_ = true;
    }
    return all_;
  }

  bool dominated(const Tuple& bound) const {
    for (const Point& p : frontier_) if (covers(p.tuple, bound, k_)) return true;
    return false;
  }

  unsigned used_by(const Point& p) const {
    unsigned used = 0;
    for (int h = 0; h < p.depth; ++h) used |= mask_[p.path[h]];
    return used;
  }

  bool uses_required(unsigned used) const { return (used & required_) == required_; }

  void add_leaf(int depth, unsigned used) {
    if (!uses_required(used)) return;
    const Tuple t = current(depth);
    if (dominated(t)) return;
    frontier_.erase(std::remove_if(frontier_.begin(), frontier_.end(),
                                   [&](const Point& p) { return covers(t, p.tuple, k_); }),
                    frontier_.end());
    frontier_.push_back({t, path_, depth});
  }

  void front(int depth, unsigned used, int from, const Triples& free) {
    walk(depth, used, from, free, [&](int leaf_depth, unsigned leaf_used) { add_leaf(leaf_depth, leaf_used); },
         [&](const Tuple& bound) { return dominated(bound); });
  }

  // Hands in non-increasing strength, each from later in the sorted list
  // than the one before, so every split is met once; leaf(depth) gets each
  // split worth keeping (path_, cards used), and a branch stops when
  // hopeless(bound) says no completion can matter, bound being the best
  // completion (each later hand at most as strong as the one being placed).
  // `free`: the triples disjoint from the cards used.
  template <class Leaf, class Hopeless>
  void walk(int depth, unsigned used, int from, const Triples& free, Leaf&& leaf, Hopeless&& hopeless) {
    if (depth == k_) return leaf(depth, used);
    // The hands left cannot take every required card.
    if (static_cast<int>(std::bitset<kMaxPartitionCards>(required_ & ~used).count()) > 3 * (k_ - depth)) return;
    const int first = free.next(from);
    if (first < 0) {
      // Fewer hands are a split of their own only when nothing else can be
      // formed (a minimum category); otherwise another order reaches it.
      if (free.next(0) < 0) leaf(depth, used);
      return;
    }
    if (depth == k_ - 1) {  // the last hand: only the strongest allowed left matters
      for (int j = first; j >= 0; j = free.next(j + 1)) {
        if (!uses_required(used | mask_[j])) continue;
        path_[depth] = j;
        return leaf(depth + 1, used | mask_[j]);
      }
      return;
    }
    if (remember_visits_ && depth >= 2 && covered_by_earlier_visit(depth, used, from)) return;
    Tuple bound = current(depth);
    const auto& at = triple_positions();
    for (int j = first; j >= 0; j = free.next(j + 1)) {
      for (int i = depth; i < k_; ++i) bound[i] = strength_[j];
      if (hopeless(bound)) break;  // later j are no stronger
      path_[depth] = j;
      const auto& p = at[triple_[j]].at;
      walk(depth + 1, used | mask_[j], j + 1,
           free.without(containing_[p[0]], containing_[p[1]], containing_[p[2]]), leaf, hopeless);
    }
  }

  // Many wild cards make many splits of equal strength: the same cards used
  // are then reached along many paths (2x faster for 15 -> 5 under ak47;
  // 5% slower without wild cards, where it is therefore off).  A node whose cards used match an
  // earlier, fully expanded node (not an ancestor: it used as many cards),
  // which started no later in the list and had a prefix at least as strong,
  // has every completion covered already.
  bool covered_by_earlier_visit(int depth, unsigned used, int from) {
    Visit& v = visits()[used];
    const Tuple prefix = current(depth);
    if (v.search == search_id_ && v.from <= from && covers(v.prefix, prefix, depth)) return true;
    v = {search_id_, from, prefix};
    return false;
  }

  struct Visit {
    std::uint64_t search = 0;
    int from = 0;
    Tuple prefix{};
  };
  // One slot per set of cards used; entries of earlier searches are stale by id.
  static std::vector<Visit>& visits() {
    thread_local std::vector<Visit> table(std::size_t{1} << kMaxPartitionCards);
    return table;
  }
  static std::uint64_t next_search_id() {
    thread_local std::uint64_t id = 0;
    return ++id;
  }

  Split make_split(const Path& path, int depth) const {
    Split s;
    s.formed = depth;
    unsigned used = 0;
    const auto& positions = triple_positions();
    for (int h = 0; h < depth; ++h) {
      const auto& p = positions[triple_[path[h]]].at;
      s.hands[h] = {cards_[p[2]], cards_[p[1]], cards_[p[0]]};
      s.slots[h] = three_card_slot(cards_[p[0]], cards_[p[1]], cards_[p[2]]);
      s.strengths[h] = strength_[path[h]];
      used |= mask_[path[h]];
    }
    for (int h = depth; h < kMaxPartitionHands; ++h) s.hands[h] = {kNoCard, kNoCard, kNoCard};
    for (int i = n_ - 1; i >= 0; --i) {
      if (!((used >> i) & 1u)) s.discards[s.discard_count++] = cards_[i];
    }
    // Highest first by the discard code (a joker above an ace), then index.
    std::stable_sort(s.discards.begin(), s.discards.begin() + s.discard_count,
                     [](Card a, Card b) { return discard_code(a) > discard_code(b); });
    return s;
  }

  int n_, k_;
  bool remember_visits_;
  std::array<Card, kMaxPartitionCards> cards_{};
  int count_ = 0;
  std::array<std::uint16_t, kMaxTriples> mask_{};
  std::array<Strength, kMaxTriples> strength_{};
  std::array<int, kMaxTriples> triple_{};
  bool indexed_ = false;
  std::array<Triples, kMaxPartitionCards> containing_{};  // by position in the sorted deal
  Triples all_;

  Path path_{};
  // lexicographic
  bool have_best_ = false;
  Tuple best_tuple_{};
  Path best_path_{};
  int best_depth_ = 0;
  int leaves_ = 0;
  // frontier
  std::vector<Point> frontier_;
  unsigned required_ = 0;
  std::uint64_t search_id_ = 0;
};

}  // namespace

// P(an opponent's hand at each position is weaker than s), from seeded
// deals played lexicographically.
class OpponentModel {
 public:
  explicit OpponentModel(const Partitioner& lexicographic)
      : hands_(lexicographic.options().hands), stride_(lexicographic.table().classes() + 2) {
    const int n = lexicographic.options().cards;
    const int pack = lexicographic.table().pack_size();
    std::vector<std::uint32_t> counts(static_cast<std::size_t>(hands_ * stride_), 0);
    std::array<Card, kMaxPack> deck{};
    for (int c = 0; c < pack; ++c) deck[c] = static_cast<Card>(c);
    SplitMix64 rng{kModelSeed};
    for (int deal = 0; deal < kModelDeals; ++deal) {
      for (int i = 0; i < n; ++i) {  // partial Fisher-Yates: the first n cards
        const unsigned j = static_cast<unsigned>(i) + rng.below_roughly(static_cast<unsigned>(pack - i));
        std::swap(deck[i], deck[j]);
      }
      const Split s = lexicographic.split_unchecked(deck.data());
      for (int h = 0; h < hands_; ++h) ++counts[h * stride_ + s.strengths[h]];
    }
    below_.assign(counts.size(), 0.0);
    for (int h = 0; h < hands_; ++h) {
      double running = 0;
      for (int s = 0; s < stride_; ++s) {
        below_[h * stride_ + s] = running / kModelDeals;
        running += counts[h * stride_ + s];
      }
    }
  }

  double below(int position, Strength s) const noexcept { return below_[position * stride_ + s]; }

 private:
  int hands_;
  int stride_;
  std::vector<double> below_;
};

namespace {

std::shared_ptr<const OpponentModel> opponent_model(const Partitioner& lexicographic) {
  // Shared while partitioners hold it, as the tables it is made from.
  static SharedTables<std::tuple<RulesConfig, int, int, int>, OpponentModel> shared;
  const auto& o = lexicographic.options();
  return shared.get({lexicographic.table().rules(), o.cards, o.hands, o.min_category},
                    [&] { return std::make_shared<const OpponentModel>(lexicographic); });
}

}  // namespace

FourOrder four_order_from(const std::string& name) {
  std::string names;
  for (std::size_t i = 0; i < kFourOrderNames.size(); ++i) {
    if (name == kFourOrderNames[i]) return static_cast<FourOrder>(i);
    names += (i ? ", '" : "'") + std::string(kFourOrderNames[i]) + "'";
  }
  throw InvalidHand("four_order must be one of " + names + ", got '" + name + "'");
}

std::array<int, kRanks> four_of_a_kind_order(const ThreeCardTable& table, FourOrder order) {
  std::array<int, kRanks> ranks{};
  for (int r = 0; r < kRanks; ++r) ranks[r] = kRanks - 1 - r;  // aces high: A, K ... 2
  if (order == FourOrder::Fours) {
    std::rotate(ranks.begin(), ranks.begin() + kRanks - 3, ranks.begin() + kRanks - 2);  // the four before the ace
  } else if (order == FourOrder::Prial) {
    // The ruleset's strength of three natural cards of the rank (its first three suits).
    const auto prial = [&](int r) { return table.strength(three_card_slot(4 * r, 4 * r + 1, 4 * r + 2)); };
    std::stable_sort(ranks.begin(), ranks.end(), [&](int a, int b) { return prial(a) > prial(b); });
  }
  return ranks;
}

Partitioner::Partitioner(std::shared_ptr<const ThreeCardTable> table, const PartitionOptions& options)
    : table_(std::move(table)), options_(options) {
  const auto& o = options_;
  if (o.cards < kMinPartitionCards || o.cards > kMaxPartitionCards) {
    throw InvalidHand("partition: expected " + std::to_string(kMinPartitionCards) + " to " +
                      std::to_string(kMaxPartitionCards) + " cards, got " + std::to_string(o.cards));
  }
  if (o.hands < kMinPartitionHands || o.hands > kMaxPartitionHands) {
    throw InvalidHand("partition: hands must be " + std::to_string(kMinPartitionHands) + " to " +
                      std::to_string(kMaxPartitionHands) + ", got " + std::to_string(o.hands));
  }
  if (3 * o.hands > o.cards) {
    throw InvalidHand("partition: " + std::to_string(o.cards) + " cards cannot form " +
                      std::to_string(o.hands) + " hands of three");
  }
  if (o.min_category < -1 || o.min_category >= kCategories) {
    throw InvalidHand("partition: min_category must be a Category, got " + std::to_string(o.min_category));
  }
  if (o.min_category >= 0) {
    // Categories hold contiguous strength ranges in every ruleset, so "at
    // least this category" is "at least its weakest strength".
    threshold_ = 0;
    for (std::uint32_t slot = 0; slot < table_->slots(); ++slot) {
      if (static_cast<int>(table_->category(slot)) != o.min_category) continue;
      const Strength s = table_->strength(slot);
      if (threshold_ == 0 || s < threshold_) threshold_ = s;
    }
  }
  four_order_ = four_of_a_kind_order(*table_, o.four_order);
  if (o.objective == Objective::ExpectedPoints) {
    // Not (opponents + 1) * cards > pack: that overflows for opponents near
    // INT_MAX and let such a request through (found by fuzzing the gRPC
    // Partition request).
    if (o.opponents < 1 || o.opponents > table_->pack_size() / o.cards - 1) {
      throw InvalidHand("partition: opponents must be 1 to " +
                        std::to_string(table_->pack_size() / o.cards - 1) + " for " +
                        std::to_string(o.cards) + "-card deals from a " +
                        std::to_string(table_->pack_size()) + "-card pack, got " +
                        std::to_string(o.opponents));
    }
    if (!(o.crash_value >= 0 && o.crash_value <= kMaxCrashValue)) {  // also NaN
      throw InvalidHand("partition: crash_value must be 0 to " + std::to_string(static_cast<int>(kMaxCrashValue)));
    }
    // P(one opponent's cards, dealt from the unseen, hold all four of a
    // given rank none of which we hold): C(U-4, n-4) / C(U, n), U unseen.
    const int unseen = table_->pack_size() - o.cards;
    opponent_four_probability_ = 1;
    for (int i = 0; i < 4; ++i) {
      opponent_four_probability_ *= static_cast<double>(o.cards - i) / (unseen - i);
    }
    PartitionOptions lex = o;
    lex.objective = Objective::Lexicographic;
    model_ = opponent_model(Partitioner(table_, lex));
    // The score reads these for every split it weighs: pow once, here.
    win_stride_ = static_cast<std::size_t>(table_->classes()) + 2;
    win_.assign(static_cast<std::size_t>(o.hands) * win_stride_, 0.0);
    for (int h = 0; h < o.hands; ++h) {
      for (std::size_t st = 1; st < win_stride_; ++st) {
        win_[h * win_stride_ + st] = std::pow(model_->below(h, static_cast<Strength>(st)), o.opponents);
      }
    }
  }
}

double Partitioner::win_probability(int position, Strength strength) const noexcept {
  return win_.empty() ? 0 : win_[static_cast<std::size_t>(position) * win_stride_ + strength];
}

double Partitioner::four_of_a_kind_bonus(int better_ranks_unheld) const noexcept {
  return std::pow(1.0 - opponent_four_probability_, options_.opponents * better_ranks_unheld);
}

Split Partitioner::split_unchecked(const Card* cards) const noexcept { return solve(cards, true); }

Split Partitioner::solve(const Card* cards, bool count_frontier) const noexcept {
  Search search(*table_, options_.hands, threshold_, cards, options_.cards);
  if (options_.objective == Objective::Lexicographic) return search.lexicographic();
  // Crash bonuses (docs/rules.md, "Crash bonuses in expected points"):
  // every four of a kind in the deal, best first, with the chance that no
  // opponent can hold a better one.
  std::array<unsigned, kRanks> fours{};
  std::array<double, kRanks> bonus{};
  int quads = 0;
  if (crash_bonuses()) {
    std::array<int, kRanks> held{};
    for (int i = 0; i < options_.cards; ++i) if (cards[i] < 52) ++held[cards[i] >> 2];
    int better_unheld = 0;
    for (int rank : four_order_) {
      if (held[rank] == 4) {
        const auto r = static_cast<Card>(4 * rank);
        fours[quads] = search.positions_of({r, static_cast<Card>(r + 1), static_cast<Card>(r + 2),
                                            static_cast<Card>(r + 3)});
        bonus[quads++] = four_of_a_kind_bonus(better_unheld);
      }
      if (held[rank] == 0) ++better_unheld;
    }
  }
  const int k = options_.hands;
  const double crash_value = crash_bonuses() ? options_.crash_value : 0;
  const auto positions = [&](const Tuple& tuple) {
    double points = 0;
    double all = 1;  // P(every position won): a crash
    for (int h = 0; h < k; ++h) {
      const double p = win_[static_cast<std::size_t>(h) * win_stride_ + tuple[h]];
      points += p;
      all *= p;
    }
    return points + crash_value * all;
  };
  // Without a four of a kind the score is the tuple's alone: no frontier needed.
  if (quads == 0 && !count_frontier) return search.best_by_bound(positions);
  return search.best_on_frontiers([&](const Tuple& tuple, unsigned used) {
    const double points = positions(tuple);
    for (int q = 0; q < quads; ++q) {  // only the player's best four scores
      if ((used & fours[q]) == fours[q]) return points + bonus[q];
    }
    return points;
  }, fours.data(), quads);
}

Split Partitioner::split(const Card* cards, std::size_t count, const std::string& where) const {
  if (count != static_cast<std::size_t>(options_.cards)) {
    throw InvalidHand((where.empty() ? std::string() : where + ": ") + "expected " +
                      std::to_string(options_.cards) + " cards, got " + std::to_string(count));
  }
  validate_hand(cards, count, table_->pack_size(), where);
  return split_unchecked(cards);
}

std::size_t Partitioner::split_batch(const Card* deals, std::size_t rows, Card* hands_out,
                                     Strength* strengths_out, int threads, const CancelFlag* cancel) const {
  const auto n = static_cast<std::size_t>(options_.cards);
  std::size_t bad = kNoBadRow;
  for_each_chunk(std::size_t{0}, rows, kValidateChunk, cancel, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      if (!hand_problem(deals + n * r, n, table_->pack_size()).empty()) {
        bad = r;
        return true;
      }
    }
    return false;
  });
  if (bad != kNoBadRow) return bad;
  const auto k = static_cast<std::size_t>(options_.hands);
  parallel_chunks(rows, threads, kSplitChunk, cancel, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      const Split s = solve(deals + n * r, false);
      for (std::size_t h = 0; h < k; ++h) {
        std::copy(s.hands[h].begin(), s.hands[h].end(), hands_out + (r * k + h) * 3);
        strengths_out[r * k + h] = s.strengths[h];
      }
    }
  }, kMinDealsPerThread);
  return kNoBadRow;
}

}  // namespace prial
