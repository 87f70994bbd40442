#pragma once
// Body names → indices into Scene::bodies, built once per scene: joints and forces refer to bodies by
// name, and resolving each of n joints by a linear search (Scene::body_index) made loading a chain of
// n bodies O(n²) — over an hour for a 10⁶-body chain.
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "affix/scene/scene.hpp"

namespace affix {

class BodyNames {
 public:
  /// Names must be unique (the scene loader checks that first); a repeated name keeps its first index.
  explicit BodyNames(const std::vector<BodyDef>& bodies) {
    index_.reserve(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) index_.emplace(bodies[i].name, static_cast<int>(i));
  }
  /// The index the loader built while it checked that the names are unique: not built twice.
  explicit BodyNames(std::unordered_map<std::string, int>&& index) : index_(std::move(index)) {}

  /// The names held: fewer than the bodies when a name repeats.
  std::size_t size() const { return index_.size(); }

  /// As Scene::body_index: the index, −1 for "world", nullopt for an unknown name.
  std::optional<int> find(const std::string& name) const {
    if (name == "world") return -1;
    const auto it = index_.find(name);
    if (it == index_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::unordered_map<std::string, int> index_;
};

}  // namespace affix
