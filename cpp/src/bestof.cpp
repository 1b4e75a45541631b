#include "prial/bestof.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "batch_rows.hpp"
#include "bestof_kernels.hpp"
#include "kernels.hpp"
#include "portable.hpp"
#include "prial/evaluator.hpp"
#include "shared_tables.hpp"

namespace prial {
namespace {

constexpr const auto& kChoose2 = kChoose<2>;
constexpr const auto& kChoose3 = kChoose<3>;
constexpr const auto& kChoose4 = kChoose<4>;
constexpr const auto& kChoose5 = kChoose<5>;

// Branch-free by construction (masks, not std::min): with random hands a
// compiler's branches here mispredict about half the time.
inline void compare_swap(unsigned& a, unsigned& b) noexcept {
  const unsigned swap = (a ^ b) & (0u - static_cast<unsigned>(b < a));
  a ^= swap;
  b ^= swap;
}

// The colex slot of one row of W cards (any order): a sorting network and
// the binomial sum, branch-free.  `valid` is 0 for a card out of range or a
// repeated card, and the slot is then 0 (keeps the load inside the table).
template <int W>
inline std::uint32_t row_slot(const Card* h, unsigned pack, unsigned& valid) noexcept {
  unsigned c[W];
  for (int i = 0; i < W; ++i) c[i] = h[i];
  if constexpr (W == 3) {
    compare_swap(c[0], c[1]); compare_swap(c[1], c[2]); compare_swap(c[0], c[1]);
  } else if constexpr (W == 4) {
    compare_swap(c[0], c[1]); compare_swap(c[2], c[3]);
    compare_swap(c[0], c[2]); compare_swap(c[1], c[3]);
    compare_swap(c[1], c[2]);
  } else {
    // Optimal 9-comparator network for five inputs.
    compare_swap(c[0], c[1]); compare_swap(c[3], c[4]);
    compare_swap(c[2], c[4]); compare_swap(c[2], c[3]);
    compare_swap(c[1], c[4]); compare_swap(c[0], c[3]);
    compare_swap(c[0], c[2]); compare_swap(c[1], c[3]);
    compare_swap(c[1], c[2]);
  }
  valid = c[W - 1] < pack;
  for (int i = 1; i < W; ++i) valid &= c[i - 1] < c[i];
  // An invalid row may hold any byte: its indexes are masked to 0 so that
  // every lookup stays inside the binomial tables (its slot is discarded).
  const unsigned keep = 0u - valid;
  std::uint32_t slot = c[0] + kChoose2[c[1] & keep] + kChoose3[c[2] & keep];
  if constexpr (W >= 4) slot += kChoose4[c[3] & keep];
  if constexpr (W == 5) slot += kChoose5[c[4] & keep];
  return valid ? slot : 0u;
}

// One contiguous range of rows, in blocks: first every slot of the block
// (prefetching its key), then the loads.  Kept in one loop, the long
// sorting network leaves only a few table misses in flight; split, the
// misses of a whole block overlap (3x on the 10 MB five-card table).
template <int W>
bool key_range(const Card* hands, std::size_t begin, std::size_t end, BestKey* out,
               const BestKey* table, unsigned pack) noexcept {
  constexpr std::size_t kBlock = 64;
  std::uint32_t slots[kBlock];
  unsigned valid_all = 1;
  for (std::size_t base = begin; base < end; base += kBlock) {
    const std::size_t count = std::min(kBlock, end - base);
    for (std::size_t i = 0; i < count; ++i) {
      unsigned valid;
      slots[i] = row_slot<W>(hands + W * (base + i), pack, valid);
      portable::prefetch(table + slots[i]);
      valid_all &= valid;
    }
    for (std::size_t i = 0; i < count; ++i) out[base + i] = table[slots[i]];
  }
  return valid_all == 0;
}

// key_range for sees: both hands' slots of a block (prefetching their
// keys), then the compares; a row is also invalid when its hands share a
// card.
template <int W>
bool see_range(const Card* seer, const Card* seen, std::size_t rows, std::uint8_t* out, const BestKey* table,
               unsigned pack) noexcept {
  constexpr std::size_t kBlock = 64;
  std::uint32_t seer_slots[kBlock], seen_slots[kBlock];
  unsigned valid_all = 1;
  for (std::size_t base = 0; base < rows; base += kBlock) {
    const std::size_t count = std::min(kBlock, rows - base);
    for (std::size_t i = 0; i < count; ++i) {
      const Card* a = seer + W * (base + i);
      const Card* b = seen + W * (base + i);
      unsigned valid_a, valid_b;
      seer_slots[i] = row_slot<W>(a, pack, valid_a);
      seen_slots[i] = row_slot<W>(b, pack, valid_b);
      portable::prefetch(table + seer_slots[i]);
      portable::prefetch(table + seen_slots[i]);
      valid_all &= valid_a & valid_b & static_cast<unsigned>(!hands_share_a_card(a, b, W));
    }
    for (std::size_t i = 0; i < count; ++i) {
      out[base + i] = static_cast<std::uint8_t>(table[seer_slots[i]] > table[seen_slots[i]]);
    }
  }
  return valid_all == 0;
}

constexpr std::size_t kHugePage = std::size_t{1} << 21;

}  // namespace

// Large tables on 2 MB pages where the OS allows: a random lookup into the
// 10-14 MB five-card table otherwise misses the TLB almost every time.
KeyBuffer::KeyBuffer(std::size_t count) : size_(count) {
  const std::size_t bytes = (count * sizeof(BestKey) + kHugePage - 1) / kHugePage * kHugePage;
  data_ = static_cast<BestKey*>(portable::aligned_allocate(kHugePage, bytes));
  if (data_ == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  madvise(data_, bytes, MADV_HUGEPAGE);  // a hint: failure only costs speed
#endif
}

KeyBuffer::~KeyBuffer() { portable::aligned_release(data_); }

namespace {

std::size_t width_index(std::size_t width) {
  if (width < 3 || width > 5) {
    throw InvalidHand("best of: expected 3, 4 or 5 cards, got " + std::to_string(width));
  }
  return width - 3;
}

std::string prefixed(const std::string& where, const std::string& what) {
  return where.empty() ? what : where + ": " + what;
}

}  // namespace

BestOfTable::BestOfTable(std::shared_ptr<const ThreeCardTable> three) : three_(std::move(three)) {}

BestOfTable::~BestOfTable() { g_live_table_bytes -= built_bytes_; }

void BestOfTable::count_built(std::size_t bytes) const noexcept {
  built_bytes_ += bytes;
  g_live_table_bytes += bytes;
}

BestOfTable::Lazy& BestOfTable::lazy(std::size_t width) const {
  Lazy& entry = lazy_[width_index(width)];
  std::call_once(entry.once, [&] { build(width, entry); });
  return entry;
}

const BestKey* BestOfTable::keys(std::size_t width) const { return lazy(width).keys->data(); }
const BestKey* BestOfTable::by_rank_keys(std::size_t width) const {
  const Lazy& entry = lazy(width);
  return entry.by_rank.empty() ? nullptr : entry.by_rank.data();
}
std::size_t BestOfTable::slots(std::size_t width) const { return lazy(width).keys->size(); }
double BestOfTable::build_seconds(std::size_t width) const { return lazy(width).seconds; }
std::size_t BestOfTable::bytes() const noexcept { return three_->bytes() + built_bytes_; }

// Every combination in colex order (so the running slot is the index): the
// key is the best over its C(width, 3) kept threes of (strength, discards).
void BestOfTable::build(std::size_t width, Lazy& into) const {
  const auto start = std::chrono::steady_clock::now();
  const int n = pack_size();
  const Strength* strength = three_->strengths();
  into.keys = std::make_unique<KeyBuffer>(kBinomial(n, static_cast<int>(width)));
  BestKey* keys = into.keys->data();
  auto s3 = [&](int x, int y, int z) { return strength[three_card_slot(x, y, z)]; };
  std::size_t slot = 0;
  if (width == 3) {
    for (int c2 = 2; c2 < n; ++c2)
      for (int c1 = 1; c1 < c2; ++c1)
        for (int c0 = 0; c0 < c1; ++c0) keys[slot++] = make_key(s3(c0, c1, c2));
  } else if (width == 4) {
    for (int c3 = 3; c3 < n; ++c3)
      for (int c2 = 2; c2 < c3; ++c2)
        for (int c1 = 1; c1 < c2; ++c1)
          for (int c0 = 0; c0 < c1; ++c0) {
            keys[slot++] = std::max({make_key(s3(c1, c2, c3), discard_code(c0)),
                                     make_key(s3(c0, c2, c3), discard_code(c1)),
                                     make_key(s3(c0, c1, c3), discard_code(c2)),
                                     make_key(s3(c0, c1, c2), discard_code(c3))});
          }
  } else {
    const BestKey* four = this->keys(4);
    for (int c4 = 4; c4 < n; ++c4)
      for (int c3 = 3; c3 < c4; ++c3)
        for (int c2 = 2; c2 < c3; ++c2)
          for (int c1 = 1; c1 < c2; ++c1)
            for (int c0 = 0; c0 < c1; ++c0) {
              // Discarding card x first, the best of the other four is the
              // four-card key: the highest strength, then the highest
              // second discard y, which is also what orders (x, y) once x
              // is fixed.  So the best of five is the best over x.
              const int c[5] = {c0, c1, c2, c3, c4};
              BestKey best = 0;
              for (int x = 0; x < 5; ++x) {
                std::uint32_t four_slot = 0;
                for (int m = 0, place = 1; m < 5; ++m) {
                  if (m != x) four_slot += kBinomial(c[m], place++);
                }
                const BestKey four_key = four[four_slot];
                best = std::max(best, make_key(strength_of_key(four_key), discard_code(c[x]),
                                               (four_key >> 4) & 15u));
              }
              keys[slot++] = best;
            }
  }
  if (width >= 4 && three_->by_rank_low() != nullptr) build_by_rank(width, into);
  into.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  count_built(into.keys->size() * sizeof(BestKey) + into.by_rank.capacity() * sizeof(BestKey));
}

namespace {

// The by-rank slot (bestof.hpp) of W sorted natural cards.
template <int W>
std::uint32_t by_rank_slot(const int (&c)[W]) noexcept {
  std::uint32_t multiset = 0;
  unsigned suit_places[4] = {0, 0, 0, 0};
  for (int i = 0; i < W; ++i) {
    multiset += kBinomial(rank_of(c[i]) + i, i + 1);
    suit_places[suit_of(c[i])] |= 1u << i;
  }
  unsigned pattern = 0;
  for (const unsigned places : suit_places) pattern += kSuitPattern.of_places[places];
  return pattern * kSuitPattern.multisets[W] + multiset;
}

// Every W-card combination of the standard pack in colex order, its key
// copied to its by-rank slot; false if two combinations that share a slot
// differ in key (not so without wild cards; checked anyway).
template <int W>
bool fill_by_rank(const BestKey* keys, std::vector<BestKey>& by_rank) {
  constexpr unsigned kUnset = ~0u;
  static_assert(kSuitPattern.multisets[W] == kBinomial(13 + W - 1, W), "rank multisets");
  by_rank.assign(std::size_t{kSuitPattern.multisets[W]} * kSuitPattern.count[W], kUnset);
  int c[W];
  for (int i = 0; i < W; ++i) c[i] = i;
  for (std::size_t slot = 0;; ++slot) {
    BestKey& entry = by_rank[by_rank_slot<W>(c)];
    if (entry != kUnset && entry != keys[slot]) return false;
    entry = keys[slot];
    // Next combination in colex order: raise the lowest card that can rise.
    int i = 0;
    while (i < W - 1 && c[i] + 1 == c[i + 1]) ++i;
    if (i == W - 1 && c[i] + 1 == kStandardPack) break;
    ++c[i];
    for (int j = 0; j < i; ++j) c[j] = j;
  }
  // Slots no hand has (e.g. a suited three with a repeated rank) keep
  // kUnset: no valid row reads them, and an invalid row reads slot 0.
  return true;
}

}  // namespace

void BestOfTable::build_by_rank(std::size_t width, Lazy& into) const {
  const bool consistent = width == 4 ? fill_by_rank<4>(into.keys->data(), into.by_rank)
                                     : fill_by_rank<5>(into.keys->data(), into.by_rank);
  if (!consistent) into.by_rank.clear();
}

BestKey BestOfTable::key(const Card* cards, std::size_t width, const std::string& where) const {
  return choose(cards, width, where).key;
}

BestChoice BestOfTable::choose(const Card* cards, std::size_t width, const std::string& where) const {
  if (width < 3 || width > 5) {
    throw InvalidHand(prefixed(where, "expected 3, 4 or 5 cards, got " + std::to_string(width) +
                                          (width ? read_as(cards, width) : std::string())));
  }
  validate_hand(cards, width, pack_size(), where);
  // At most ten threes: a direct search is as fast as the tables here and
  // also says which three to keep.
  std::array<int, 5> c{};
  for (std::size_t i = 0; i < width; ++i) c[i] = cards[i];
  std::sort(c.begin(), c.begin() + static_cast<long>(width), std::greater<int>());
  BestChoice best;
  bool found = false;
  const int w = static_cast<int>(width);
  for (int x = 0; x < w; ++x)
    for (int y = x + 1; y < w; ++y)
      for (int z = y + 1; z < w; ++z) {
        const std::uint32_t slot = three_card_slot(c[z], c[y], c[x]);
        unsigned codes[2] = {0, 0};
        Card dropped[2] = {0, 0};
        int drops = 0;
        for (int m = 0; m < w; ++m) {
          if (m == x || m == y || m == z) continue;
          dropped[drops] = static_cast<Card>(c[m]);
          codes[drops++] = discard_code(c[m]);
        }
        const BestKey k = make_key(three_->strength(slot), codes[0], codes[1]);
        if (found && k <= best.key) continue;
        found = true;
        best.key = k;
        best.slot = slot;
        best.kept = {static_cast<Card>(c[x]), static_cast<Card>(c[y]), static_cast<Card>(c[z])};
        best.discards = drops;
        // Higher discard first; a joker (code 14) above an ace.
        if (drops == 2 && codes[1] > codes[0]) std::swap(dropped[0], dropped[1]);
        best.discarded = {dropped[0], dropped[1]};
      }
  return best;
}

bool best_of_rows_scalar(const Card* hands, std::size_t rows, std::size_t width, BestKey* out,
                         const BestKey* table, unsigned pack) noexcept {
  if (width == 3) return key_range<3>(hands, 0, rows, out, table, pack);
  if (width == 4) return key_range<4>(hands, 0, rows, out, table, pack);
  return key_range<5>(hands, 0, rows, out, table, pack);
}

bool best_of_see_rows_scalar(const Card* seer, const Card* seen, std::size_t rows, std::size_t width,
                             std::uint8_t* out, const BestKey* table, unsigned pack) noexcept {
  return width == 4 ? see_range<4>(seer, seen, rows, out, table, pack) : see_range<5>(seer, seen, rows, out, table, pack);
}

namespace {

// Rows between cancellation checks: ~7 ms on one core for five cards with
// the scalar kernel (13 ns a row), ~3 ms with AVX2.
constexpr std::size_t kKeyChunk = std::size_t{1} << 19;

}  // namespace

std::size_t BestOfTable::key_batch(const Card* hands, std::size_t rows, std::size_t width,
                                   BestKey* out, int threads, const CancelFlag* cancel) const {
  throw_if_cancelled(cancel);
  const BestKey* table = keys(width);
  const BestKey* by_rank = width >= 4 ? by_rank_keys(width) : nullptr;
  const auto pack = static_cast<unsigned>(pack_size());
  bool avx2 = false;
#if defined(PRIAL_HAVE_X86_KERNELS)
  avx2 = width >= 4 && simd_level() >= SimdLevel::kAvx2;
#endif
  // Keys of rows [begin, end); true when one of them is invalid.
  auto key_rows = [&](std::size_t begin, std::size_t end) {
    const Card* h = hands + width * begin;
#if defined(PRIAL_HAVE_X86_KERNELS)
    if (avx2) {
      return (width == 4 ? best_of_four_rows_avx2 : best_of_five_rows_avx2)(h, end - begin, out + begin, table,
                                                                            by_rank, pack);
    }
#endif
    return best_of_rows_scalar(h, end - begin, width, out + begin, table, pack);
  };
  (void)avx2;
  (void)by_rank;
  return first_bad_row(rows, threads, kKeyChunk, cancel, key_rows, [&](std::size_t row) {
    return !hand_problem(hands + width * row, width, pack_size()).empty();
  });
}

std::shared_ptr<const BestOfTable> best_of_table(const RulesConfig& rules) {
  static SharedTables<RulesConfig, BestOfTable> shared;
  auto three = three_card_table(rules);
  return shared.get(rules, [&] { return std::make_shared<const BestOfTable>(std::move(three)); });
}

}  // namespace prial
