// SPDX-License-Identifier: Apache-2.0
// Pieces of the SARIF writer shared with the probe's SARIF output.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace sc {
nlohmann::ordered_json sarif_rules();   // rules[] from the rule docs
nlohmann::ordered_json sarif_driver();  // tool.driver with rules
std::string uri_encode_path(std::string_view p);
std::string file_uri(const std::string& abs_dir);
}  // namespace sc
