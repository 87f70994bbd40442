#pragma once
// settings.ipc.linear_solver: how the ipc Newton step with linear joints is solved (joint_step.hpp).
#include <optional>
#include <string_view>

namespace affix {

enum class JointSolverKind { automatic, reduction, dense, tree };

/// "automatic", "reduction", "dense", "tree".
inline const char* joint_solver_name(JointSolverKind kind) {
  switch (kind) {
    case JointSolverKind::automatic: return "automatic";
    case JointSolverKind::reduction: return "reduction";
    case JointSolverKind::dense: return "dense";
    case JointSolverKind::tree: return "tree";
  }
  return "?";
}

inline std::optional<JointSolverKind> joint_solver_from_name(std::string_view name) {
  for (JointSolverKind kind :
       {JointSolverKind::automatic, JointSolverKind::reduction, JointSolverKind::dense, JointSolverKind::tree})
    if (name == joint_solver_name(kind)) return kind;
  return std::nullopt;
}

}  // namespace affix
