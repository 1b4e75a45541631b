// The bound concepts of prial._core, one register_* function (and file)
// each; module.cpp calls them in this order.
#pragma once

#include <pybind11/pybind11.h>

namespace prial::bindings {

void register_cancel(pybind11::module_& m);     // register_cancel.cpp: CancelFlag
void register_cards(pybind11::module_& m);      // register_cards.cpp: card text
void register_rules(pybind11::module_& m);      // register_rules.cpp: RulesConfig and its enums
void register_evaluator(pybind11::module_& m);  // register_evaluator.cpp: Evaluator and its operations
void register_kernels(pybind11::module_& m);    // register_kernels.cpp: the batch kernels' SIMD level
void register_records(pybind11::module_& m);    // register_records.cpp: showdown result records
void register_play(pybind11::module_& m);       // register_play.cpp: showdowns, odds, Crash
void register_columns(pybind11::module_& m);    // register_columns.cpp: Arrow text columns
void register_service(pybind11::module_& m);    // register_service.cpp: wire-form responses
void register_table(pybind11::module_& m);      // register_table.cpp: the betting table

}  // namespace prial::bindings
