#pragma once
// Moved to solvers/linear (shared with the ipc solver's tree solve); kept so mabd's includes stand.
#include "affix/solvers/linear/spd_factor.hpp"
