// IncomingComposition (nqueens/solver.h): BoardState::Incoming, fed rows as
// they arrive.
#include <utility>

#include "nqueens/solver.h"
#include "pipeline/board_state.h"

namespace nqueens {

IncomingComposition::IncomingComposition(uint32_t n)
    : state_(std::make_unique<internal::BoardState>(internal::BoardState::Incoming(n))) {}

IncomingComposition::IncomingComposition(IncomingComposition&&) noexcept = default;
IncomingComposition& IncomingComposition::operator=(IncomingComposition&&) noexcept = default;
IncomingComposition::~IncomingComposition() = default;

uint64_t IncomingComposition::Bytes(uint64_t n) { return internal::BoardState::ControlBytes(n); }

void IncomingComposition::Place(const uint32_t* board, uint32_t rows) {
  if (refused_ || rows <= placed_) return;
  if (!state_->PlaceRows(board, placed_ + 1, rows)) {
    refused_ = true;
    return;
  }
  placed_ = rows;
}

}  // namespace nqueens
