// SPDX-License-Identifier: Apache-2.0
// Escaping for text a terminal or a CI runner reads: control characters, ANSI
// and OSC escape sequences, C1 controls and invalid UTF-8 in paths, messages
// and source lines are shown as \n, \x1b, \xNN; nothing printed can move the
// cursor, retitle a terminal or start a GitHub workflow command.
#pragma once
#include <string>
#include <string_view>

namespace sc {

// Escapes every control character (tab kept when keep_tab), C1 control and invalid UTF-8 byte.
std::string term_safe(std::string_view s, bool keep_tab = false);
// Length of the valid UTF-8 sequence starting at s[i]; 0 when the byte starts none.
size_t utf8_seq_len(std::string_view s, size_t i);
// "\xNN" for one byte.
std::string hex_byte(unsigned char c);
// A path for the start of a line: term_safe, and "./" before a leading "::".
std::string term_path(std::string_view s);

}  // namespace sc
