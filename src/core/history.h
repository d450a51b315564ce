// history.h - a fixed-size ring of recent samples for the panel's plots.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>

namespace fabrik {

template <std::size_t N>
class History {
 public:
  void Push(float v) {
    values_[next_] = v;
    next_ = (next_ + 1) % N;
    count_ = std::min(count_ + 1, N);
  }
  // Samples oldest first are at data()[(offset() + i) % N]; ImGui::PlotLines takes offset.
  const float* data() const { return values_.data(); }
  int offset() const { return static_cast<int>(count_ < N ? 0 : next_); }
  int size() const { return static_cast<int>(count_ < N ? count_ : N); }
  float max() const {
    float m = 0.0f;
    for (std::size_t i = 0; i < count_; ++i) m = std::max(m, values_[i]);
    return m;
  }
  float mean() const {
    float s = 0.0f;
    for (std::size_t i = 0; i < count_; ++i) s += values_[i];
    return count_ ? s / static_cast<float>(count_) : 0.0f;
  }

 private:
  std::array<float, N> values_{};
  std::size_t next_ = 0;
  std::size_t count_ = 0;
};

}  // namespace fabrik
