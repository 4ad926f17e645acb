// SPDX-License-Identifier: Apache-2.0
// PEP 508 environment markers evaluated for a machine: the DGX Spark's marker values live in
// knowledge/platforms.yaml (spark-marker-values); version comparisons follow PEP 440.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace sc {

// Three-valued: a marker that depends on a value nobody knows (python_version, extra) may apply.
enum class MarkerResult { False, True, Unknown };

// Marker variable -> its value; a variable missing from the map is unknown.
using MarkerValues = std::map<std::string, std::string, std::less<>>;

// The Spark's values (platform_machine aarch64, sys_platform linux, ...), from knowledge.
const MarkerValues& spark_marker_values();

// Evaluate `marker` (the text after ';') against `values`; Unknown when it cannot be parsed.
MarkerResult evaluate_marker(std::string_view marker, const MarkerValues& values);

// False on the Spark: pip there never installs a requirement with this marker.
bool marker_false_on_spark(std::string_view marker);

}  // namespace sc
