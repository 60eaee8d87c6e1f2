// A command file: a command buffer written by a person (umbra-sim --commands), in
// YAML, one command a list item, its arguments numbers or the program's symbols:
//
//   - program              # no arguments: the whole text, where Device::load put it
//   - args: params         # one argument: a scalar
//   - domain: [16, 8]      # several: a list, or a map by name ({w: 16, h: 8})
//   - run                  # no argument: the program's entry point
//   - fence: [done, 1]
//   - end                  # optional: the device appends it
//
// The names and argument counts are the generated table's (isa/commands.yaml), so the
// file can name every command the command processor has and no other.  Every error
// names the file, the line and the command.
#pragma once
#include <yaml-cpp/yaml.h>

#include <stdexcept>
#include <string>

#include "umbra/device.h"
#include "umbra/program.h"

namespace umbra::host {

struct CommandFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `name` is the file's name for messages; `img` gives `program`'s and `run`'s defaults.
CommandBuffer parse_commands(const std::string& text, const std::string& name, const Program& p,
                             const ProgramImage& img);
// A list already read (an example manifest's `commands:`); messages name `name` and the
// nodes' own lines.
CommandBuffer parse_commands(const YAML::Node& list, const std::string& name, const Program& p,
                             const ProgramImage& img);
// Reads the file first (CommandFileError when it cannot be read).
CommandBuffer parse_command_file(const std::string& path, const Program& p, const ProgramImage& img);

}  // namespace umbra::host
