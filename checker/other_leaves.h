// The other leaves of a set of part certificates (docs/reference/
// certificates.md, "Parts"): each leaf's node, by its queens, with where it
// first appears and whether a subtree without other leaves proves it.
#ifndef NQUEENS_CHECKER_OTHER_LEAVES_H_
#define NQUEENS_CHECKER_OTHER_LEAVES_H_

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "checker/certificate_check.h"

namespace nqueens::checker {

class OtherLeaves {
 public:
  // A node's queens: row << 32 | column, ascending.
  using Queens = std::vector<uint64_t>;
  // Where a leaf is: "certificate line " 12, and the name of the leaf.
  struct Where {
    size_t certificate;
    absl::string_view position_name;
    uint64_t position;
    absl::string_view leaf_name;
  };

  bool empty() const { return leaves_.empty(); }
  void Add(Queens queens, const Where& where) {
    depths_.insert(queens.size());
    leaves_.try_emplace(std::move(queens), Leaf{where, false});
  }
  bool Holds(const Queens& queens) const { return leaves_.contains(queens); }
  // Whether a node of `depth` queens may be one of them: most nodes are not
  // looked up.
  bool MayHold(size_t depth) const { return depths_.contains(depth); }
  void Proved(const Queens& queens) {
    if (auto leaf = leaves_.find(queens); leaf != leaves_.end()) leaf->second.proved = true;
  }
  // The first leaf that nothing proves, in the order of the certificates and
  // their positions.
  SetVerdict FirstUnproved() const {
    const Where* first = nullptr;
    for (const auto& [queens, leaf] : leaves_) {
      if (!leaf.proved &&
          (first == nullptr || std::tie(leaf.where.certificate, leaf.where.position) <
                                   std::tie(first->certificate, first->position))) {
        first = &leaf.where;
      }
    }
    if (first == nullptr) return {};
    return {absl::InvalidArgumentError(
                absl::StrCat(first->position_name, first->position, ": ", first->leaf_name,
                             ": no other certificate of the set proves this subtree")),
            first->certificate};
  }

 private:
  struct Leaf {
    Where where;
    bool proved;
  };
  absl::flat_hash_map<Queens, Leaf> leaves_;
  absl::flat_hash_set<size_t> depths_;
};

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_OTHER_LEAVES_H_
