// umbra-isagen: turns isa/isa.yaml into everything that needs to know an encoding —
// the C++ tables (isa_gen.h/.cpp), the RTL's Verilog includes (umbra_isa.vh, and
// umbra_isa_decode.vh with each opcode's decode attributes) and the ISA reference
// (docs/isa.md) — so that no encoding is written twice by hand.  With --uarch it also
// turns isa/uarch.yaml, the core's codes and numbers (thread states, bubble reasons,
// fault causes, cache outcomes, stage offsets, limits), into a C++ header
// (uarch_gen.h) and a Verilog include (umbra_uarch.vh) for both cycle models.
//
// It is also the YAML's checker: before writing anything it rejects a description
// with overlapping encodings, a field that does not fit, a bit no field accounts for,
// a duplicate name, an unknown reference or a port op whose code is an opcode,
// naming the entry and its line.
#include <yaml-cpp/yaml.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "umbra/format.h"
#include "umbra/output_file.h"
#include "umbra/output_files.h"

namespace {

using umbra::hex2;

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string g_file;

// A node read from a file knows its line; a missing one (or the null root of an
// empty file) does not, and then the message names the file alone.
[[noreturn]] void fail(const YAML::Node& at, const std::string& msg) {
  const int line = at.IsDefined() ? at.Mark().line : -1;
  throw Error(g_file + (line >= 0 ? ":" + std::to_string(line + 1) : std::string()) + ": error: " + msg);
}

struct FieldDef {
  std::string name;
  int lsb = 0, width = 0;
};
struct FormatDef {
  std::string name, doc;
  std::vector<FieldDef> fields;
  YAML::Node node;
};
struct KindDef {
  std::string name, doc;
  int bits = 0, scale = 1;
  bool is_signed = false, pcrel = false;
};
struct OperandDef {
  std::string name, kind, field, access, base;
};
struct InstrDef {
  std::string name, format, cls, group, semantics;
  int opcode = 0;
  std::vector<OperandDef> operands;
  bool reads[3] = {false, false, false};
  bool writes_a = false;
};
struct SregDef {
  std::string name, doc;
  int number = 0;
};
struct PseudoDef {
  std::string name, syntax, expands;
};
struct ClassDef {
  std::string name, doc;
};
// An extension group (isa.yaml, groups): its bit in a configuration's mask is its
// place in the list.  A required group is in every configuration.
struct GroupDef {
  std::string name, doc;
  bool required = false;
};
// A configuration's groups, for the reference's table (--configs).
struct ConfigGroups {
  std::string file;
  std::vector<std::string> groups;  // empty: the key is absent, every group
};
// An op that travels on the memory port but is no instruction (the cache's line
// fill): it shares the port's 8-bit op field with the opcodes, so its code must not
// be one of them.
struct PortOpDef {
  std::string name, doc;
  int code = 0;
};

struct Isa {
  std::string name;
  int version = 0, registers = 0, zero_register = 0;
  std::vector<FormatDef> formats;
  std::vector<KindDef> kinds;
  std::vector<ClassDef> classes;
  std::vector<GroupDef> groups;
  std::vector<InstrDef> instrs;
  std::vector<SregDef> sregs;
  std::vector<PseudoDef> pseudos;
  std::vector<PortOpDef> port_ops;
  std::string fp_semantics;
  std::map<std::string, FieldDef> field_pos;  // global field name -> position
};

// The C++ enums in isa.h are the fixed vocabulary the generic code is written
// against; the YAML must use exactly these names.
const std::vector<std::string> kFormatNames = {"R", "I", "J", "N"};
const std::vector<std::string> kClassNames = {"integer", "float",  "branch", "load",
                                              "store",   "atomic", "special"};
const std::vector<std::string> kKindNames = {"reg",    "sreg", "simm8", "uimm5", "lane", "simm16",
                                             "uimm16", "br8",  "br16",  "br24",  "mem"};
const std::vector<std::string> kFieldNames = {"a", "b", "c", "imm16", "imm24", "zero"};

std::string ident(std::string s) {
  for (auto& ch : s) ch = ch == '.' ? '_' : char(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

// Every entry is a map; checking that first turns a stray scalar or list into a
// message about the entry rather than a yaml-cpp exception about operator[].
void need_map(const YAML::Node& n, const std::string& what) {
  if (!n.IsMap()) fail(n, what + ": expected a map of keys such as name: ...");
}

std::string need_str(const YAML::Node& n, const char* key, const std::string& what) {
  need_map(n, what);
  const YAML::Node v = n[key];
  if (!v || !v.IsScalar()) fail(n, what + ": missing '" + key + "'");
  return v.as<std::string>();
}

int need_int(const YAML::Node& n, const char* key, const std::string& what) {
  need_map(n, what);
  const YAML::Node v = n[key];
  if (!v || !v.IsScalar()) fail(n, what + ": missing '" + key + "'");
  try {
    return v.as<int>();
  } catch (const YAML::Exception&) {
    fail(v, what + ": '" + key + "' is not an integer");
  }
}

std::string opt_str(const YAML::Node& n, const char* key) {
  return n[key] && n[key].IsScalar() ? n[key].as<std::string>() : std::string();
}

bool opt_bool(const YAML::Node& n, const char* key, const std::string& what) {
  const YAML::Node v = n[key];
  if (!v) return false;
  bool b = false;
  if (!v.IsScalar() || !YAML::convert<bool>::decode(v, b))
    fail(v, what + ": '" + key + "' must be true or false");
  return b;
}

int index_of(const std::vector<std::string>& v, const std::string& s) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] == s) return int(i);
  return -1;
}

std::string join(const std::vector<std::string>& v) {
  std::string r;
  for (auto& s : v) r += (r.empty() ? "" : ", ") + s;
  return r;
}

// The names in one list with the line of each, so that a duplicate's message can
// point at the first definition too.
class Names {
 public:
  // `in` is the enclosing entry, for names that are only unique within one.
  void add(const YAML::Node& at, const std::string& name, const std::string& what,
           const std::string& in = "") {
    auto [it, fresh] = line_.emplace(name, at.Mark().line + 1);
    if (!fresh)
      fail(at, (in.empty() ? "" : in + ": ") + "duplicate " + what + " '" + name + "' (first on line " +
                   std::to_string(it->second) + ")");
  }
  bool has(const std::string& name) const { return line_.count(name) != 0; }

 private:
  std::map<std::string, int> line_;
};

YAML::Node need_seq(const YAML::Node& root, const char* key) {
  const YAML::Node n = root[key];
  if (!n || !n.IsSequence()) fail(root, std::string("missing list '") + key + "'");
  return n;
}

Isa load(const std::string& path) {
  g_file = path;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::ParserException& e) {
    throw Error(path + ":" + std::to_string(e.mark.line + 1) + ": error: " + e.msg);
  } catch (const YAML::BadFile&) {
    throw Error(path + ": error: cannot read file");
  }
  Isa isa;
  if (!root.IsMap()) fail(root, "expected a map of sections (isa, formats, operand_kinds, ...)");
  const YAML::Node head = root["isa"];
  if (!head) fail(root, "missing 'isa' header");
  isa.name = need_str(head, "name", "isa");
  isa.version = need_int(head, "version", "isa");
  isa.registers = need_int(head, "registers", "isa");
  isa.zero_register = need_int(head, "zero_register", "isa");
  if (need_int(head, "word_bits", "isa") != 32) fail(head, "isa: word_bits must be 32");
  if (isa.registers < 1 || isa.registers > 256) fail(head, "isa: registers must be 1..256");
  if (isa.zero_register < 0 || isa.zero_register >= isa.registers)
    fail(head, "isa: zero_register must be one of the registers");

  // Formats: fields inside 32 bits, no overlap, every bit accounted for, and a
  // field name means the same bits in every format.
  Names formats;
  for (const YAML::Node& f : need_seq(root, "formats")) {
    FormatDef fd;
    fd.node = f;
    fd.name = need_str(f, "name", "format");
    fd.doc = opt_str(f, "doc");
    const std::string what = "format '" + fd.name + "'";
    formats.add(f, fd.name, "format");
    if (index_of(kFormatNames, fd.name) < 0)
      fail(f, what + ": unknown format (the tools know " + join(kFormatNames) + ")");
    uint32_t used = 0;
    Names fnames;
    if (!f["fields"] || !f["fields"].IsSequence()) fail(f, what + ": missing list 'fields'");
    for (const YAML::Node& fl : f["fields"]) {
      FieldDef d{need_str(fl, "name", what + " field"), need_int(fl, "lsb", what + " field"),
                 need_int(fl, "width", what + " field")};
      const std::string fw = what + " field '" + d.name + "'";
      fnames.add(fl, d.name, "field", what);
      if (d.lsb < 0 || d.width < 1 || d.lsb + d.width > 32)
        fail(fl, fw + ": bits " + std::to_string(d.lsb + d.width - 1) + ":" + std::to_string(d.lsb) +
                     " do not fit in a 32-bit word");
      const uint32_t mask = uint32_t(((uint64_t(1) << d.width) - 1) << d.lsb);
      if (used & mask) fail(fl, fw + ": overlaps another field of the format");
      used |= mask;
      if (d.name == "op") {
        if (d.lsb != 24 || d.width != 8) fail(fl, fw + ": the opcode must be bits 31:24");
      } else if (index_of(kFieldNames, d.name) < 0) {
        fail(fl, fw + ": unknown field (the tools know op, " + join(kFieldNames) + ")");
      }
      auto it = isa.field_pos.find(d.name);
      if (it != isa.field_pos.end() && (it->second.lsb != d.lsb || it->second.width != d.width))
        fail(fl, fw + ": has a different position than in another format");
      isa.field_pos[d.name] = d;
      fd.fields.push_back(d);
    }
    for (int bit = 0; bit < 32; ++bit)
      if (!(used & (1u << bit))) fail(f, what + ": bit " + std::to_string(bit) + " belongs to no field");
    // The tables give each format three slots besides the opcode (kFormatFields).
    if (fd.fields.size() > 4) fail(f, what + ": at most 3 fields besides op");
    isa.formats.push_back(fd);
  }

  Names kinds;
  for (const YAML::Node& k : need_seq(root, "operand_kinds")) {
    KindDef kd;
    kd.name = need_str(k, "name", "operand kind");
    const std::string what = "operand kind '" + kd.name + "'";
    kd.bits = need_int(k, "bits", what);
    kd.is_signed = opt_bool(k, "signed", what);
    kd.pcrel = opt_bool(k, "pcrel", what);
    kd.scale = k["scale"] ? need_int(k, "scale", what) : 1;
    kd.doc = opt_str(k, "doc");
    kinds.add(k, kd.name, "operand kind");
    if (index_of(kKindNames, kd.name) < 0)
      fail(k, "operand kind '" + kd.name + "': unknown (the tools know " + join(kKindNames) + ")");
    if (kd.bits < 1 || kd.bits > 24) fail(k, what + ": bits must be 1..24");
    if (kd.scale < 1 || kd.scale > 255) fail(k, what + ": scale must be 1..255");
    isa.kinds.push_back(kd);
  }
  for (auto& k : kKindNames)
    if (!kinds.has(k)) fail(root["operand_kinds"], "operand kind '" + k + "' is not described");

  Names classes;
  for (const YAML::Node& c : need_seq(root, "classes")) {
    ClassDef cd{need_str(c, "name", "class"), opt_str(c, "doc")};
    classes.add(c, cd.name, "class");
    if (index_of(kClassNames, cd.name) < 0)
      fail(c, "class '" + cd.name + "': unknown (the tools know " + join(kClassNames) + ")");
    isa.classes.push_back(cd);
  }

  // Groups before instructions, which name them.  The Verilog mask and the C++ masks
  // are 32 bits wide; the names become identifiers, so the mnemonic rule applies.
  Names groups;
  for (const YAML::Node& g : need_seq(root, "groups")) {
    GroupDef gd{need_str(g, "name", "group"), opt_str(g, "doc"), false};
    const std::string what = "group '" + gd.name + "'";
    gd.required = opt_bool(g, "required", what);
    groups.add(g, gd.name, "group");
    bool name_ok = !gd.name.empty() && std::islower(static_cast<unsigned char>(gd.name[0]));
    for (char ch : gd.name)
      name_ok &= std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch));
    if (!name_ok) fail(g, what + ": a group name is a lower-case letter followed by a-z or 0-9");
    if (isa.groups.size() == 32) fail(g, what + ": at most 32 groups (a configuration's mask is 32 bits)");
    isa.groups.push_back(gd);
  }
  if (isa.groups.empty()) fail(root["groups"], "the list 'groups' is empty; every instruction needs one");
  if (!isa.groups[0].required)
    fail(root["groups"], "the first group ('" + isa.groups[0].name +
                             "') must be required: a configuration without it could run no program");

  Names sregs;
  std::map<int, std::string> sreg_numbers;
  for (const YAML::Node& s : need_seq(root, "special_registers")) {
    SregDef sd{need_str(s, "name", "special register"), opt_str(s, "doc"),
               need_int(s, "number", "special register")};
    sregs.add(s, sd.name, "special register");
    if (sd.number < 0 || sd.number > 255)
      fail(s, "special register '" + sd.name + "': number must be 0..255");
    if (auto [it, fresh] = sreg_numbers.emplace(sd.number, sd.name); !fresh)
      fail(s, "special register '" + sd.name + "': number " + std::to_string(sd.number) +
                  " is taken by special register '" + it->second + "'");
    isa.sregs.push_back(sd);
  }

  Names instrs;
  std::map<int, std::string> by_opcode;
  for (const YAML::Node& in : need_seq(root, "instructions")) {
    InstrDef d;
    d.name = need_str(in, "name", "instruction");
    const std::string what = "instruction '" + d.name + "'";
    // Mnemonics become C++ and Verilog identifiers ('.' -> '_', upper case); without
    // '_' in a mnemonic, two of them cannot map to one identifier.
    bool name_ok = !d.name.empty() && std::islower(static_cast<unsigned char>(d.name[0]));
    for (char ch : d.name)
      name_ok &= std::islower(static_cast<unsigned char>(ch)) ||
                 std::isdigit(static_cast<unsigned char>(ch)) || ch == '.';
    if (!name_ok) fail(in, what + ": a mnemonic is a lower-case letter followed by a-z, 0-9 or '.'");
    d.opcode = need_int(in, "opcode", what);
    d.format = need_str(in, "format", what);
    d.cls = need_str(in, "class", what);
    d.group = need_str(in, "group", what);
    d.semantics = need_str(in, "semantics", what);
    instrs.add(in, d.name, "instruction");
    if (d.opcode < 0 || d.opcode > 255) fail(in["opcode"], what + ": opcode does not fit in 8 bits");
    if (d.opcode == 0) fail(in["opcode"], what + ": opcode 0 is reserved so that zeroed memory is illegal");
    auto [it, fresh] = by_opcode.emplace(d.opcode, d.name);
    if (!fresh) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", d.opcode);
      fail(in["opcode"], "overlapping encodings: " + what + " and instruction '" + it->second +
                             "' both have opcode " + hex);
    }
    const FormatDef* fmt = nullptr;
    for (auto& f : isa.formats)
      if (f.name == d.format) fmt = &f;
    if (!fmt) fail(in, what + ": unknown format '" + d.format + "'");
    bool cls_ok = false;
    for (auto& c : isa.classes) cls_ok |= c.name == d.cls;
    if (!cls_ok) fail(in, what + ": unknown class '" + d.cls + "'");
    if (!groups.has(d.group)) fail(in["group"], what + ": unknown group '" + d.group + "'");
    auto field_of = [&](const YAML::Node& at, const std::string& ow,
                        const std::string& name) -> const FieldDef& {
      for (auto& f : fmt->fields)
        if (f.name == name && name != "op" && name != "zero") return f;
      fail(at, ow + ": format " + fmt->name + " has no operand field '" + name + "'");
    };
    const YAML::Node ops = in["operands"];
    if (!ops || !ops.IsSequence()) fail(in, what + ": missing list 'operands'");
    if (ops.size() > 3) fail(ops, what + ": at most 3 operands");
    std::set<std::string> used_fields;
    Names names;
    int pcrel_operands = 0;
    for (const YAML::Node& o : ops) {
      OperandDef od{need_str(o, "name", what + " operand"), need_str(o, "kind", what + " operand"),
                    need_str(o, "field", what + " operand"), opt_str(o, "access"), opt_str(o, "base")};
      const std::string ow = what + " operand '" + od.name + "'";
      names.add(o, od.name, "operand", what);
      const KindDef* kd = nullptr;
      for (auto& k : isa.kinds)
        if (k.name == od.kind) kd = &k;
      if (!kd) fail(o, ow + ": unknown kind '" + od.kind + "'");
      const FieldDef& fd = field_of(o, ow, od.field);
      if (kd->bits > fd.width)
        fail(o, ow + ": kind " + kd->name + " needs " + std::to_string(kd->bits) + " bits but field " +
                    fd.name + " has " + std::to_string(fd.width));
      // decode() requires the bits above a narrow unsigned value to be zero; for a
      // signed one it has no rule, so two words would decode to the same operands.
      if (kd->is_signed && kd->bits < fd.width)
        fail(o, ow + ": signed kind " + kd->name + " must fill field " + fd.name + " (" +
                    std::to_string(fd.width) + " bits)");
      // Decoded::target() follows the one pc-relative operand.
      if (kd->pcrel && ++pcrel_operands > 1) fail(o, ow + ": an instruction has at most one branch target");
      if (!used_fields.insert(od.field).second) fail(o, ow + ": field " + od.field + " is used twice");
      const bool is_reg = od.kind == "reg";
      if (is_reg && od.access != "r" && od.access != "w" && od.access != "rw")
        fail(o, ow + ": a register operand needs access r, w or rw");
      if (!is_reg && !od.access.empty()) fail(o, ow + ": only register operands have an access");
      if (is_reg || od.kind == "sreg" || od.kind == "mem")
        if (fd.width != 8) fail(o, ow + ": registers live in 8-bit fields");
      if (od.kind == "mem") {
        if (od.base.empty()) fail(o, ow + ": a memory operand needs a 'base' field");
        const FieldDef& bd = field_of(o, ow, od.base);
        if (bd.width != 8 || (od.base != "a" && od.base != "b" && od.base != "c"))
          fail(o, ow + ": the base register lives in field a, b or c");
        if (!used_fields.insert(od.base).second) fail(o, ow + ": field " + od.base + " is used twice");
        d.reads[od.base[0] - 'a'] = true;
      } else if (!od.base.empty()) {
        fail(o, ow + ": only memory operands have a base");
      }
      if (is_reg) {
        const int fi = od.field.size() == 1 ? od.field[0] - 'a' : -1;
        if (fi < 0 || fi > 2) fail(o, ow + ": registers live in fields a, b or c");
        if (od.access.find('r') != std::string::npos) d.reads[fi] = true;
        if (od.access.find('w') != std::string::npos) {
          if (fi != 0) fail(o, ow + ": only field a may name a written register");
          d.writes_a = true;
        }
      }
      d.operands.push_back(od);
    }
    isa.instrs.push_back(d);
  }

  if (root["pseudo_instructions"])
    for (const YAML::Node& p : need_seq(root, "pseudo_instructions")) {
      PseudoDef pd{need_str(p, "name", "pseudo-instruction"), need_str(p, "syntax", "pseudo-instruction"),
                   need_str(p, "expands", "pseudo-instruction")};
      if (instrs.has(pd.name)) fail(p, "pseudo-instruction '" + pd.name + "' is also an instruction");
      isa.pseudos.push_back(pd);
    }
  if (root["port_ops"]) {
    Names port_ops;
    std::map<int, std::string> by_code;
    for (const YAML::Node& p : need_seq(root, "port_ops")) {
      PortOpDef pd{need_str(p, "name", "port op"), opt_str(p, "doc"), need_int(p, "code", "port op")};
      const std::string what = "port op '" + pd.name + "'";
      port_ops.add(p, pd.name, "port op");
      bool name_ok = !pd.name.empty() && std::islower(static_cast<unsigned char>(pd.name[0]));
      for (char ch : pd.name)
        name_ok &=
            std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch));
      if (!name_ok) fail(p, what + ": a port op name is a lower-case letter followed by a-z or 0-9");
      if (instrs.has(pd.name)) fail(p, what + ": is also an instruction");
      if (pd.code < 1 || pd.code > 255) fail(p["code"], what + ": code must be 1..255");
      if (auto it = by_opcode.find(pd.code); it != by_opcode.end())
        fail(p["code"],
             what + ": code " + hex2(pd.code) + " is the opcode of instruction '" + it->second + "'");
      if (auto [it, fresh] = by_code.emplace(pd.code, pd.name); !fresh)
        fail(p["code"], what + ": code " + hex2(pd.code) + " is taken by port op '" + it->second + "'");
      isa.port_ops.push_back(pd);
    }
  }
  for (size_t g = 0; g < isa.groups.size(); ++g) {
    bool used = false;
    for (auto& i : isa.instrs) used |= i.group == isa.groups[g].name;
    if (!used) fail(root["groups"][g], "group '" + isa.groups[g].name + "' has no instruction");
  }
  isa.fp_semantics = opt_str(root, "fp_semantics");
  return isa;
}

// ---- decode attributes ------------------------------------------------------------
// What both cycle models' decoders steer by, derived here once from each
// instruction's operands and class: the RTL's umbra_decode_attr() (umbra_isa_decode.vh)
// and the C++ InstrInfo's flags.  A field's validity check is one of the few the RTL
// decode implements (Check); a kind that needs another is refused, so the YAML cannot
// describe an operand the RTL would not validate.
enum class Check { Zero, Reg, Any, Sreg, U5, U2 };
const std::vector<std::string> kCheckNames = {"ZERO", "REG", "ANY", "SREG", "U5", "U2"};
const std::vector<std::string> kCheckDocs = {
    "unused: must be zero",
    "a register number: must name a register the core has",
    "any value (a signed immediate, a branch offset, a memory offset)",
    "a special-register number",
    "unsigned 5-bit: bits 7:5 zero",
    "unsigned 2-bit: bits 7:2 zero"};

struct Attrs {
  int fmt = 0;                                             // index in kFormatNames
  Check chk[3] = {Check::Zero, Check::Zero, Check::Zero};  // fields a, b, c
  bool reads[3] = {false, false, false};
  bool cond_branch = false;    // a conditional branch (reads field a, compares)
  bool writes_result = false;  // field a's register := X1's or the FPU's result
  bool returns_data = false;   // field a's register := memory data (the thread sleeps)
  bool memory = false;         // sends a request to data memory
  bool fpu = false;            // executes on the FPU
};

Attrs attrs_of(const Isa& isa, const InstrDef& i) {
  Attrs a;
  a.fmt = index_of(kFormatNames, i.format);
  for (int f = 0; f < 3; ++f) {
    const std::string field(1, char('a' + f));
    a.reads[f] = i.reads[f];
    for (auto& op : i.operands) {
      if (op.base == field) a.chk[f] = Check::Reg;
      if (op.field != field) continue;
      const KindDef* kd = nullptr;
      for (auto& k : isa.kinds)
        if (k.name == op.kind) kd = &k;
      const int width = isa.field_pos.at(field).width;
      if (op.kind == "reg")
        a.chk[f] = Check::Reg;
      else if (op.kind == "sreg")
        a.chk[f] = Check::Sreg;
      else if (kd->is_signed || kd->bits == width)
        a.chk[f] = Check::Any;
      else if (kd->bits == 5)
        a.chk[f] = Check::U5;
      else if (kd->bits == 2)
        a.chk[f] = Check::U2;
      else
        throw Error(g_file + ": error: instruction '" + i.name + "': the RTL decode has no check for a " +
                    std::to_string(kd->bits) + "-bit unsigned operand (kind " + kd->name +
                    "); add one to umbra-isagen's Check and rtl/decode.v");
    }
  }
  const bool from_memory = i.cls == "load" || i.cls == "atomic";
  a.cond_branch = i.cls == "branch" && i.reads[0];
  a.writes_result = i.writes_a && !from_memory;
  a.returns_data = i.writes_a && from_memory;
  a.memory = i.cls == "load" || i.cls == "store" || i.cls == "atomic";
  a.fpu = i.cls == "float";
  return a;
}

// The packed attribute vector of the RTL, most significant part first.
struct AttrPart {
  std::string name;
  int width;
  std::string doc;
};
const std::vector<AttrPart> kAttrParts = {
    {"KNOWN", 1, "the opcode is an instruction"},
    {"FMT", 2, "its format (UMBRA_FMT_*)"},
    {"CHK_A", 3, "field a's check (UMBRA_CHK_*)"},
    {"CHK_B", 3, "field b's check"},
    {"CHK_C", 3, "field c's check"},
    {"READS_A", 1, "field a is a register read"},
    {"READS_B", 1, "field b is a register read (a memory operand's base included)"},
    {"READS_C", 1, "field c is a register read"},
    {"COND_BRANCH", 1, "a conditional branch"},
    {"WRITES_RESULT", 1, "writes field a's register from X1's or the FPU's result"},
    {"RETURNS_DATA", 1, "writes field a's register from memory: the thread sleeps"},
    {"MEMORY", 1, "sends a request to data memory (load, store, atomic)"},
    {"FPU", 1, "executes on the FPU"},
};

std::string bits_of(unsigned v, int width) {
  std::string r;
  for (int b = width - 1; b >= 0; --b) r += (v >> b) & 1 ? '1' : '0';
  return r;
}

// ---- uarch.yaml ------------------------------------------------------------------------
struct CodeValue {
  std::string name, doc;
  int value = 0;
};
struct CodeGroup {
  std::string name, cpp, doc;
  int bits = 0;
  std::vector<CodeValue> values;
};
struct Uarch {
  int fetch_to_x1 = 0, max_threads = 0, min_registers = 0;
  // The execute stages L (X1 -> W, the FPU's latency) a configuration may choose.
  int min_execute_stages = 0, max_execute_stages = 0, default_execute_stages = 0;
  // The RTL's MISC_LATENCY (rtl/execute.v, rtl/fpu.v): 2 from this L on, 1 below.
  int misc_latency_2_from = 0;
  int misc_latency_3_from = 0;
  int misc_latency_4_from = 0;
  long long max_imem_words = 0;
  int max_cores = 0;
  int depth(int execute_stages) const { return fetch_to_x1 + execute_stages + 1; }
  std::vector<CodeGroup> codes;
};

std::string camel_snake(const std::string& s) {
  std::string r;
  bool up = true;
  for (char ch : s) {
    if (ch == '_') {
      up = true;
      continue;
    }
    r += up ? char(std::toupper(static_cast<unsigned char>(ch))) : ch;
    up = false;
  }
  return r;
}

bool snake_ok(const std::string& s) {
  bool ok = !s.empty() && std::islower(static_cast<unsigned char>(s[0]));
  for (char ch : s)
    ok &= std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch)) ||
          ch == '_';
  return ok;
}

// The names the C++ and RTL code are written against: the YAML must describe exactly
// these groups, each with these values (their numbers are the YAML's to choose).
const std::map<std::string, std::vector<std::string>> kCodeNames = {
    {"thread_state", {"idle", "run", "sleep", "exited"}},
    {"bubble_reason", {"idle", "memory", "exited"}},
    {"fault", {"none", "illegal_instruction", "misaligned", "out_of_range", "bad_jump", "instruction_limit"}},
    {"cache_outcome", {"none", "hit", "miss", "merge"}},
};

Uarch load_uarch(const std::string& path, const Isa& isa) {
  g_file = path;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::ParserException& e) {
    throw Error(path + ":" + std::to_string(e.mark.line + 1) + ": error: " + e.msg);
  } catch (const YAML::BadFile&) {
    throw Error(path + ": error: cannot read file");
  }
  if (!root.IsMap()) fail(root, "expected a map of sections (pipeline, limits, codes)");
  Uarch u;
  const YAML::Node pipe = root["pipeline"];
  if (!pipe) fail(root, "missing 'pipeline' section");
  u.fetch_to_x1 = need_int(pipe, "fetch_to_x1", "pipeline");
  const YAML::Node ex = pipe["execute_stages"];
  if (!ex || !ex.IsMap()) fail(ex ? ex : pipe, "pipeline: missing map 'execute_stages' (min, max, default)");
  u.min_execute_stages = need_int(ex, "min", "pipeline.execute_stages");
  u.max_execute_stages = need_int(ex, "max", "pipeline.execute_stages");
  u.default_execute_stages = need_int(ex, "default", "pipeline.execute_stages");
  // X1 is fetch + 3 (F, D, R before it).  The FPU's multiply and add are two
  // registered stages each (rtl/fpu.v), so W is at least four stages after X1; 32 is
  // a sanity bound, far beyond any FP32 datapath.
  if (u.fetch_to_x1 != 3) fail(pipe["fetch_to_x1"], "pipeline: fetch_to_x1 must be 3 (F, D, R, then X1)");
  if (u.min_execute_stages < 4)
    fail(ex["min"],
         "pipeline: execute_stages.min must be at least 4 (the FPU's multiply and add, two stages each)");
  if (u.max_execute_stages < u.min_execute_stages || u.max_execute_stages > 32)
    fail(ex["max"], "pipeline: execute_stages.max must be execute_stages.min..32");
  if (u.default_execute_stages < u.min_execute_stages || u.default_execute_stages > u.max_execute_stages)
    fail(ex["default"], "pipeline: execute_stages.default must be within execute_stages.min..max");
  // Execute writes its result delay RAM in X<1 + MISC_LATENCY> and reads it in X<L>,
  // so a two-cycle misc result needs L >= 4 + 1.
  u.misc_latency_2_from = need_int(pipe, "misc_latency_2_from", "pipeline");
  if (u.misc_latency_2_from < std::max(5, u.min_execute_stages) ||
      u.misc_latency_2_from > u.max_execute_stages)
    fail(pipe["misc_latency_2_from"],
         "pipeline: misc_latency_2_from must be " + std::to_string(std::max(5, u.min_execute_stages)) +
             " (execute's delay RAM is read in X<L>, after X<1 + 2>)..execute_stages.max");
  // Each further MISC_LATENCY step starts at a deeper L than the one before it.
  const auto next_step = [&](const char* key, const char* previous_key, int previous) {
    const int v = need_int(pipe, key, "pipeline");
    if (v <= previous || v > u.max_execute_stages)
      fail(pipe[key], std::string("pipeline: ") + key + " must be above " + previous_key + " (" +
                          std::to_string(previous) + ")..execute_stages.max");
    return v;
  };
  u.misc_latency_3_from = next_step("misc_latency_3_from", "misc_latency_2_from", u.misc_latency_2_from);
  u.misc_latency_4_from = next_step("misc_latency_4_from", "misc_latency_3_from", u.misc_latency_3_from);
  const YAML::Node lim = root["limits"];
  if (!lim) fail(root, "missing 'limits' section");
  u.max_threads = need_int(lim, "max_threads", "limits");
  u.min_registers = need_int(lim, "min_registers", "limits");
  u.max_imem_words = need_int(lim, "max_imem_words", "limits");
  u.max_cores = need_int(lim, "max_cores", "limits");
  if (u.max_cores < 1 || u.max_cores > 256)
    fail(lim["max_cores"], "limits: max_cores must be 1..256 (a core is the DRAM tag's high byte)");
  // Every legal depth must fit some legal thread count.
  if (u.max_threads < u.depth(u.max_execute_stages) || u.max_threads > 256)
    fail(lim["max_threads"], "limits: max_threads must be " + std::to_string(u.depth(u.max_execute_stages)) +
                                 " (the deepest pipeline)..256 (the 8-bit memory tag)");
  if (u.min_registers < 1 || u.min_registers > isa.registers)
    fail(lim["min_registers"], "limits: min_registers must be 1.." + std::to_string(isa.registers));
  if (u.max_imem_words < 1 || u.max_imem_words > (1ll << 30) || (u.max_imem_words & (u.max_imem_words - 1)))
    fail(lim["max_imem_words"],
         "limits: max_imem_words must be a power of two up to 2^30 (a byte pc is 32 bits)");
  Names groups;
  for (const YAML::Node& g : need_seq(root, "codes")) {
    CodeGroup cg;
    cg.name = need_str(g, "name", "code list");
    const std::string what = "code list '" + cg.name + "'";
    cg.cpp = need_str(g, "cpp", what);
    cg.bits = need_int(g, "bits", what);
    cg.doc = opt_str(g, "doc");
    groups.add(g, cg.name, "code list");
    auto known = kCodeNames.find(cg.name);
    if (known == kCodeNames.end())
      fail(g, what + ": unknown (the models know thread_state, bubble_reason, fault, cache_outcome)");
    if (cg.bits < 1 || cg.bits > 8) fail(g, what + ": bits must be 1..8");
    if (!g["values"] || !g["values"].IsSequence()) fail(g, what + ": missing list 'values'");
    Names names;
    std::map<int, std::string> by_value;
    for (const YAML::Node& v : g["values"]) {
      CodeValue cv{need_str(v, "name", what + " value"), opt_str(v, "doc"),
                   need_int(v, "value", what + " value")};
      const std::string vw = what + " value '" + cv.name + "'";
      names.add(v, cv.name, "value", what);
      if (!snake_ok(cv.name)) fail(v, vw + ": a name is lower case, digits and '_'");
      if (index_of(known->second, cv.name) < 0)
        fail(v, vw + ": unknown (the models know " + join(known->second) + ")");
      if (cv.value < 0 || cv.value >= (1 << cg.bits))
        fail(v, vw + ": value " + std::to_string(cv.value) + " does not fit in " + std::to_string(cg.bits) +
                    " bits");
      if (auto [it, fresh] = by_value.emplace(cv.value, cv.name); !fresh)
        fail(v, vw + ": value " + std::to_string(cv.value) + " is taken by '" + it->second + "'");
      cg.values.push_back(cv);
    }
    for (auto& n : known->second)
      if (!names.has(n)) fail(g, what + ": value '" + n + "' is not described");
    u.codes.push_back(cg);
  }
  for (auto& [name, values] : kCodeNames)
    if (!groups.has(name)) fail(root["codes"], "code list '" + name + "' is not described");
  return u;
}

const char* kUarchHeader = "Generated from isa/uarch.yaml by umbra-isagen. Do not edit.";

// F D R X1 .. X<max>: every stage's name before W in the deepest pipeline.
std::vector<std::string> stage_names(const Uarch& u) {
  std::vector<std::string> s = {"F", "D", "R"};
  for (int k = 1; k <= u.max_execute_stages; ++k) s.push_back("X" + std::to_string(k));
  return s;
}

std::string emit_uarch_header(const Isa& isa, const Uarch& u) {
  std::ostringstream o;
  o << "// " << kUarchHeader
    << "\n// The core's codes and numbers, shared by the SystemC model, the "
       "configuration\n// loader and the cosimulation (the RTL's copy is rtl/umbra_uarch.vh).\n"
    << "#pragma once\n#include <cstdint>\n\nnamespace umbra::uarch {\n\n";
  o << "// Stages: an instruction fetched in cycle n is in stage k in cycle n + k.\n";
  o << "constexpr unsigned kFetchToX1 = " << u.fetch_to_x1 << ";\n";
  o << "// Execute stages L = X1 -> W = the FPU's add/multiply latency: a configuration's\n"
       "// core.execute_stages, within these limits.\n";
  o << "constexpr unsigned kMinExecuteStages = " << u.min_execute_stages << ";\n";
  o << "constexpr unsigned kMaxExecuteStages = " << u.max_execute_stages << ";\n";
  o << "constexpr unsigned kDefaultExecuteStages = " << u.default_execute_stages << ";\n";
  o << "// W's stage and the depth F..W of a core with L execute stages; the core needs at\n"
       "// least that many threads (no forwarding, no interlock).\n";
  o << "constexpr unsigned fetch_to_w(unsigned execute_stages) {\n  return kFetchToX1 + execute_stages;\n}\n";
  o << "constexpr unsigned pipeline_depth(unsigned execute_stages) {\n  return fetch_to_w(execute_stages) + "
       "1;\n}\n";
  o << "constexpr unsigned kMaxPipelineDepth = pipeline_depth(kMaxExecuteStages);\n";
  const auto st = stage_names(u);
  o << "// Stage k's name (k = 0 is F) in the deepest pipeline, W left out: stage_name().\n";
  o << "constexpr const char* kStageNames[kMaxPipelineDepth - 1] = {";
  for (size_t k = 0; k < st.size(); ++k) o << (k ? ", \"" : "\"") << st[k] << "\"";
  o << "};\n";
  o << "// Stage k's name in a core of L execute stages: F D R X1 .. X<L> W, \"?\" beyond W.\n";
  o << "constexpr const char* stage_name(unsigned k, unsigned execute_stages) {\n"
       "  return k == fetch_to_w(execute_stages) ? \"W\" : k < fetch_to_w(execute_stages) ? kStageNames[k] : "
       "\"?\";\n"
       "}\n";
  o << "\n// Limits of a configuration (loader, SystemC model, RTL parameters).\n";
  o << "constexpr unsigned kMinThreads = pipeline_depth(kMinExecuteStages);  // the shallowest pipeline\n";
  o << "constexpr unsigned kMaxThreads = " << u.max_threads << ";\n";
  o << "constexpr unsigned kMinRegisters = " << u.min_registers << ";\n";
  o << "constexpr unsigned kMaxRegisters = " << isa.registers << ";\n";
  o << "constexpr uint32_t kMaxImemWords = " << u.max_imem_words << ";\n";
  o << "constexpr unsigned kMaxCores = " << u.max_cores << ";\n";
  for (auto& g : u.codes) {
    int max = 0;
    for (auto& v : g.values) max = std::max(max, v.value);
    o << "\n// " << g.name << ": " << g.doc << "\n";
    o << "enum class " << g.cpp << " : uint8_t {\n";
    for (auto& v : g.values)
      o << "  " << camel_snake(v.name) << " = " << v.value << ",  // " << v.doc << "\n";
    o << "};\nconstexpr unsigned k" << g.cpp << "Bits = " << g.bits << ";\n";
    o << "constexpr unsigned k" << g.cpp << "Count = " << max + 1 << ";  // largest value + 1\n";
  }
  o << "\n}  // namespace umbra::uarch\n";
  return o.str();
}

std::string emit_uarch_verilog(const Isa& isa, const Uarch& u) {
  std::ostringstream o;
  o << "// " << kUarchHeader
    << "\n// The core's codes and numbers for the RTL (the C++ copy is "
       "umbra/uarch_gen.h).\n`ifndef UMBRA_UARCH_VH\n`define UMBRA_UARCH_VH\n\n";
  o << "// Stages: an instruction fetched in cycle n is in stage k in cycle n + k.\n";
  o << "`define UMBRA_FETCH_TO_X1 " << u.fetch_to_x1 << "\n";
  o << "// Execute stages L = X1 -> W = the FPU's add/multiply latency (umbra_core's\n"
       "// EXEC_STAGES, a configuration's core.execute_stages); the depth is\n"
       "// UMBRA_FETCH_TO_X1 + L + 1 and THREADS must be at least that.\n";
  o << "`define UMBRA_MIN_EXECUTE_STAGES " << u.min_execute_stages << "\n";
  o << "`define UMBRA_MAX_EXECUTE_STAGES " << u.max_execute_stages << "\n";
  o << "`define UMBRA_DEFAULT_EXECUTE_STAGES " << u.default_execute_stages << "\n";
  o << "// The FPU's short functions and the integer multiply take MISC_LATENCY cycles\n"
       "// from X1 (RTL-internal: nothing sees a result before W): 2 from the first L on,\n"
       "// 3 (the FPU's input register) from the second, 4 (fp_misc in three stages) from\n"
       "// the third.\n";
  o << "`define UMBRA_MISC_LATENCY_2_FROM " << u.misc_latency_2_from << "\n";
  o << "`define UMBRA_MISC_LATENCY_3_FROM " << u.misc_latency_3_from << "\n";
  o << "`define UMBRA_MISC_LATENCY_4_FROM " << u.misc_latency_4_from << "\n";
  o << "`define UMBRA_MISC_LATENCY(l) "
       "(((l) >= `UMBRA_MISC_LATENCY_4_FROM) ? 4 : ((l) >= `UMBRA_MISC_LATENCY_3_FROM) ? 3 : "
       "((l) >= `UMBRA_MISC_LATENCY_2_FROM) ? 2 : 1)\n";
  o << "\n// Limits of the parameters (the fewest threads: the shallowest pipeline's depth)\n";
  o << "`define UMBRA_MIN_THREADS " << u.depth(u.min_execute_stages) << "\n";
  o << "`define UMBRA_MAX_THREADS " << u.max_threads << "\n";
  o << "`define UMBRA_MIN_REGISTERS " << u.min_registers << "\n";
  o << "`define UMBRA_MAX_REGISTERS " << isa.registers << "\n";
  o << "`define UMBRA_MAX_IMEM_WORDS " << u.max_imem_words << "\n";
  o << "`define UMBRA_MAX_CORES " << u.max_cores << "\n";
  for (auto& g : u.codes) {
    const std::string p = "UMBRA_" + ident(g.name);
    o << "\n// " << g.name << ": " << g.doc << "\n";
    o << "`define " << p << "_BITS " << g.bits << "\n";
    for (auto& v : g.values)
      o << "`define " << p << "_" << ident(v.name) << " " << g.bits << "'d" << v.value << "\n";
  }
  o << "\n`endif\n";
  return o.str();
}

std::string camel(const std::string& s) {
  std::string r = s;
  r[0] = char(std::toupper(static_cast<unsigned char>(r[0])));
  return r;
}

std::string quote(const std::string& s) {
  std::string r = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') r += '\\';
    if (ch == '\n') {
      r += "\\n";
      continue;
    }
    r += ch;
  }
  return r + "\"";
}

const char* kHeader = "Generated from isa/isa.yaml by umbra-isagen. Do not edit.";

int group_index(const Isa& isa, const std::string& name) {
  for (size_t g = 0; g < isa.groups.size(); ++g)
    if (isa.groups[g].name == name) return int(g);
  return -1;
}

std::string all_groups_mask(const Isa& isa) {
  const uint64_t all = (uint64_t(1) << isa.groups.size()) - 1;
  char b[24];
  std::snprintf(b, sizeof b, "0x%llxu", static_cast<unsigned long long>(all));
  return b;
}

std::string emit_header(const Isa& isa) {
  std::ostringstream o;
  o << "// " << kHeader << "\n#pragma once\n#include <cstdint>\n\nnamespace umbra::isa {\n\n";
  o << "constexpr unsigned kRegisters = " << isa.registers << ";\n";
  o << "constexpr unsigned kZeroRegister = " << isa.zero_register << ";\n\n";
  o << "enum class Op : uint16_t {\n";
  for (auto& i : isa.instrs) o << "  " << ident(i.name) << ",  // " << hex2(i.opcode) << "\n";
  o << "};\n\nconstexpr unsigned kNumOps = " << isa.instrs.size() << ";\n";
  o << "constexpr unsigned kNumKinds = " << isa.kinds.size() << ";\n";
  o << "constexpr unsigned kNumGroups = " << isa.groups.size() << ";\n";
  o << "// Every group's bit: the default configuration's core.groups.\n";
  o << "constexpr uint32_t kAllGroups = " << all_groups_mask(isa) << ";\n";
  o << "extern const GroupInfo kGroups[kNumGroups];\n";
  o << "constexpr unsigned kNumSpecialRegs = " << isa.sregs.size() << ";\n";
  o << "extern const InstrInfo kInstrs[kNumOps];\n";
  o << "extern const KindInfo kKinds[kNumKinds];\n";
  o << "extern const SpecialRegInfo kSpecialRegs[kNumSpecialRegs];\n";
  o << "// The fields of each format besides the opcode, indexed by Format; Field::None pads.\n";
  o << "extern const Field kFormatFields[" << kFormatNames.size() << "][3];\n\n";
  o << "namespace sreg {\n";
  for (auto& s : isa.sregs) o << "constexpr uint8_t " << ident(s.name) << " = " << s.number << ";\n";
  o << "}  // namespace sreg\n\n";
  o << "// Extension groups: a group's number is its bit in a configuration's mask.\n";
  o << "namespace group {\n";
  for (size_t g = 0; g < isa.groups.size(); ++g)
    o << "constexpr uint8_t " << ident(isa.groups[g].name) << " = " << g << ";\n";
  o << "}  // namespace group\n\n";
  o << "// Ops on the memory port that are no instruction (port_ops in isa.yaml).\n";
  for (auto& p : isa.port_ops)
    o << "constexpr uint8_t kPortOp" << camel(p.name) << " = " << hex2(p.code) << ";\n";
  o << "\n}  // namespace umbra::isa\n";
  return o.str();
}

std::string field_enum(const std::string& f) {
  if (f.empty()) return "Field::None";
  if (f == "imm16") return "Field::Imm16";
  if (f == "imm24") return "Field::Imm24";
  return "Field::" + camel(f);
}

std::string emit_source(const Isa& isa) {
  std::ostringstream o;
  o << "// " << kHeader << "\n#include \"umbra/isa.h\"\n\nnamespace umbra::isa {\n\n";
  o << "const InstrInfo kInstrs[kNumOps] = {\n";
  for (auto& i : isa.instrs) {
    o << "    {Op::" << ident(i.name) << ", " << quote(i.name) << ", " << hex2(i.opcode)
      << ", Format::" << i.format << ", Class::" << camel(i.cls) << ", " << i.operands.size() << ", {";
    for (auto& op : i.operands) {
      const char* acc = op.access == "r"    ? "Read"
                        : op.access == "w"  ? "Write"
                        : op.access == "rw" ? "ReadWrite"
                                            : "None";
      o << "{" << quote(op.name) << ", Kind::" << camel(op.kind) << ", " << field_enum(op.field)
        << ", Access::" << acc << ", " << field_enum(op.base) << "}, ";
    }
    auto b = [](bool v) { return v ? "true" : "false"; };
    const Attrs at = attrs_of(isa, i);
    o << "}, " << quote(i.semantics) << ", " << b(i.reads[0]) << ", " << b(i.reads[1]) << ", "
      << b(i.reads[2]) << ", " << b(i.writes_a) << ", " << b(at.cond_branch) << ", " << b(at.writes_result)
      << ", " << b(at.returns_data) << ", " << b(at.memory) << ", " << b(at.fpu) << ", "
      << group_index(isa, i.group) << "},\n";
  }
  o << "};\n\nconst GroupInfo kGroups[kNumGroups] = {\n";
  for (auto& g : isa.groups)
    o << "    {" << quote(g.name) << ", " << (g.required ? "true" : "false") << ", " << quote(g.doc)
      << "},\n";
  // kind_info() indexes kKinds by the Kind enum, so the rows follow the enum's
  // order (kKindNames), not the YAML's.
  o << "};\n\nconst KindInfo kKinds[kNumKinds] = {\n";
  for (auto& name : kKindNames)
    for (auto& k : isa.kinds)
      if (k.name == name)
        o << "    {Kind::" << camel(k.name) << ", " << quote(k.name) << ", " << k.bits << ", "
          << (k.is_signed ? "true" : "false") << ", " << (k.pcrel ? "true" : "false") << ", " << k.scale
          << ", " << quote(k.doc) << "},\n";
  o << "};\n\nconst SpecialRegInfo kSpecialRegs[kNumSpecialRegs] = {\n";
  for (auto& s : isa.sregs)
    o << "    {" << quote(s.name) << ", " << s.number << ", " << quote(s.doc) << "},\n";
  o << "};\n\nconst Field kFormatFields[" << kFormatNames.size() << "][3] = {\n";
  for (auto& name : kFormatNames) {
    std::vector<std::string> fields;
    for (auto& f : isa.formats)
      if (f.name == name)
        for (auto& fd : f.fields)
          if (fd.name != "op") fields.push_back(fd.name);
    fields.resize(3);
    o << "    {" << field_enum(fields[0]) << ", " << field_enum(fields[1]) << ", " << field_enum(fields[2])
      << "},  // " << name << "\n";
  }
  o << "};\n\nunsigned field_lsb(Field f) {\n  switch (f) {\n";
  for (auto& [name, fd] : isa.field_pos)
    if (name != "op") o << "    case " << field_enum(name) << ": return " << fd.lsb << ";\n";
  o << "    default: return 0;\n  }\n}\n\nunsigned field_width(Field f) {\n  switch (f) {\n";
  for (auto& [name, fd] : isa.field_pos)
    if (name != "op") o << "    case " << field_enum(name) << ": return " << fd.width << ";\n";
  o << "    default: return 0;\n  }\n}\n\n}  // namespace umbra::isa\n";
  return o.str();
}

std::string emit_verilog(const Isa& isa) {
  std::ostringstream o;
  o << "// " << kHeader << "\n// Opcode, field and special-register constants for the RTL decode.\n";
  o << "`ifndef UMBRA_ISA_VH\n`define UMBRA_ISA_VH\n\n";
  for (auto& [name, fd] : isa.field_pos) {
    o << "`define UMBRA_FIELD_" << ident(name) << "_LSB " << fd.lsb << "\n";
    o << "`define UMBRA_FIELD_" << ident(name) << "_MSB " << fd.lsb + fd.width - 1 << "\n";
  }
  o << "\n// Opcodes (op[7:4] groups the unit, op[3:0] selects the function)\n";
  for (auto& i : isa.instrs) {
    char b[16];
    std::snprintf(b, sizeof b, "8'h%02x", i.opcode);
    o << "`define UMBRA_OP_" << ident(i.name) << " " << b << "\n";
  }
  o << "\n// Special registers (rdsr)\n";
  for (auto& s : isa.sregs) o << "`define UMBRA_SR_" << ident(s.name) << " 8'd" << s.number << "\n";
  o << "\n// Memory-port ops that are no instruction (port_ops)\n";
  for (auto& p : isa.port_ops) {
    char b[16];
    std::snprintf(b, sizeof b, "8'h%02x", p.code);
    o << "`define UMBRA_PORT_OP_" << ident(p.name) << " " << b << "\n";
  }
  o << "\n// Extension groups: a group's bit in the GROUPS parameter (a configuration's core.groups)\n";
  o << "`define UMBRA_NUM_GROUPS " << isa.groups.size() << "\n";
  o << "`define UMBRA_GROUPS_ALL " << isa.groups.size() << "'b" << std::string(isa.groups.size(), '1')
    << "\n";
  for (size_t g = 0; g < isa.groups.size(); ++g)
    o << "`define UMBRA_GROUP_" << ident(isa.groups[g].name) << " " << g << "\n";
  o << "\n`define UMBRA_REGISTERS " << isa.registers << "\n`define UMBRA_ZERO_REGISTER " << isa.zero_register
    << "\n";
  o << "\n// Decode attributes: umbra_decode_attr(op) (umbra_isa_decode.vh) returns this packed\n"
       "// vector for each opcode, all zero for an opcode that is no instruction.\n";
  int total = 0;
  for (auto& part : kAttrParts) total += part.width;
  o << "`define UMBRA_ATTR_BITS " << total << "\n";
  int msb = total - 1;
  for (auto& part : kAttrParts) {
    if (part.width == 1)
      o << "`define UMBRA_ATTR_" << part.name << " " << msb << "  // " << part.doc << "\n";
    else
      o << "`define UMBRA_ATTR_" << part.name << "_MSB " << msb << "  // " << part.doc
        << "\n`define UMBRA_ATTR_" << part.name << "_LSB " << msb - part.width + 1 << "\n";
    msb -= part.width;
  }
  o << "// Formats (UMBRA_ATTR_FMT)\n";
  for (size_t f = 0; f < kFormatNames.size(); ++f)
    o << "`define UMBRA_FMT_" << kFormatNames[f] << " 2'd" << f << "\n";
  o << "// The validity check of an 8-bit field (UMBRA_ATTR_CHK_*)\n";
  for (size_t c = 0; c < kCheckNames.size(); ++c)
    o << "`define UMBRA_CHK_" << kCheckNames[c] << " 3'd" << c << "  // " << kCheckDocs[c] << "\n";
  o << "\n`endif\n";
  return o.str();
}

// The per-opcode attribute table as a Verilog function, included inside the body of
// the module that decodes (a function cannot live outside a module in Verilog-2005),
// so it has no include guard, like reverse32.vh.
std::string emit_verilog_decode(const Isa& isa) {
  std::ostringstream o;
  o << "// " << kHeader
    << "\n"
       "// umbra_decode_attr(attr_op): the decode attributes of each opcode, packed as the\n"
       "// UMBRA_ATTR_* positions of umbra_isa.vh say; all zero (not KNOWN) for an opcode\n"
       "// that is no instruction.  Included inside rtl/decode.v's module body; no include\n"
       "// guard, since a function belongs to the module that includes it.\n";
  int total = 0;
  for (auto& part : kAttrParts) total += part.width;
  o << "//\n//                                   ";
  for (auto& part : kAttrParts) o << part.name << " ";
  o << "\nfunction [`UMBRA_ATTR_BITS-1:0] umbra_decode_attr;\n  input [7:0] attr_op;\n  begin\n    case "
       "(attr_op)\n";
  for (auto& i : isa.instrs) {
    const Attrs a = attrs_of(isa, i);
    std::string bits = "1_" + bits_of(unsigned(a.fmt), 2) + "_" + bits_of(unsigned(a.chk[0]), 3) + "_" +
                       bits_of(unsigned(a.chk[1]), 3) + "_" + bits_of(unsigned(a.chk[2]), 3) + "_";
    for (bool f : {a.reads[0], a.reads[1], a.reads[2], a.cond_branch, a.writes_result, a.returns_data,
                   a.memory, a.fpu})
      bits += f ? '1' : '0';
    std::string name = "`UMBRA_OP_" + ident(i.name) + ":";
    name.resize(std::max<size_t>(name.size(), 22), ' ');
    o << "      " << name << " umbra_decode_attr = " << total << "'b" << bits << ";\n";
  }
  o << "      default:              umbra_decode_attr = {`UMBRA_ATTR_BITS{1'b0}};\n";
  o << "    endcase\n  end\nendfunction\n\n";
  o << "// umbra_op_group(group_op): one bit set, the opcode's group (UMBRA_GROUP_*); none for an\n"
       "// opcode that is no instruction.  ANDed with GROUPS, it says the core implements it.\n";
  o << "function [`UMBRA_NUM_GROUPS-1:0] umbra_op_group;\n  input [7:0] group_op;\n  begin\n"
       "    umbra_op_group = {`UMBRA_NUM_GROUPS{1'b0}};\n    case (group_op)\n";
  for (size_t g = 0; g < isa.groups.size(); ++g) {
    std::string ops;
    int n = 0;
    for (auto& i : isa.instrs)
      if (i.group == isa.groups[g].name)
        ops += std::string(n ? (n % 4 ? ", " : ",\n      ") : "") + "`UMBRA_OP_" + ident(i.name), ++n;
    o << "      " << ops << ":\n        umbra_op_group[`UMBRA_GROUP_" << ident(isa.groups[g].name)
      << "] = 1'b1;\n";
  }
  o << "      default: ;\n    endcase\n  end\nendfunction\n\n";
  o << "// umbra_sreg_known(sreg_number): it is the number of a special register (rdsr's field b).\n";
  o << "function umbra_sreg_known;\n  input [7:0] sreg_number;\n  begin\n    case (sreg_number)\n      ";
  for (size_t k = 0; k < isa.sregs.size(); ++k)
    o << (k ? (k % 5 ? ", " : ",\n      ") : "") << "`UMBRA_SR_" << ident(isa.sregs[k].name);
  o << ":\n        umbra_sreg_known = 1'b1;\n      default:\n        umbra_sreg_known = 1'b0;\n";
  o << "    endcase\n  end\nendfunction\n";
  return o.str();
}

// Assembly syntax of an instruction, from its operand list.
std::string syntax(const InstrDef& i) {
  std::string s = i.name;
  for (size_t k = 0; k < i.operands.size(); ++k) {
    const OperandDef& op = i.operands[k];
    s += k ? ", " : " ";
    if (op.kind == "mem")
      s += "offset(rB)";
    else
      s += op.name;
  }
  return s;
}

// Each operand's kind, as "rd: reg (w), imm: uimm16"; "—" for none.
std::string operand_kinds(const InstrDef& i) {
  std::string s;
  for (auto& op : i.operands) {
    s += (s.empty() ? "" : ", ") + (op.kind == "mem" ? std::string("offset(rB)") : op.name) + ": `" +
         op.kind + "`";
    if (!op.access.empty()) s += " (" + op.access + ")";
    if (op.kind == "mem") s += ", rB: `reg` (r)";
  }
  return s.empty() ? "—" : s;
}

// Bit layout of an instruction: opcode, then each field's content.
std::string layout(const Isa& isa, const InstrDef& i) {
  const FormatDef* fmt = nullptr;
  for (auto& f : isa.formats)
    if (f.name == i.format) fmt = &f;
  std::string s;
  for (auto& f : fmt->fields) {
    std::string content;
    if (f.name == "op") {
      content = hex2(i.opcode);
    } else {
      for (auto& op : i.operands) {
        if (op.field == f.name) content = op.kind == "mem" ? "offset/4" : op.name;
        if (op.base == f.name) content = "rB";
      }
      if (content.empty()) content = "0";
    }
    s += (s.empty() ? "" : " | ") + content;
  }
  return s;
}

std::string md_escape(const std::string& s) {
  std::string r;
  for (char ch : s) {
    if (ch == '|') r += '\\';
    r += ch;
  }
  return r;
}

// The groups each configs/*.yaml names (core.groups), for the reference's table.  Only
// that key is read; the configuration loader checks the files (umbra-config).
std::vector<ConfigGroups> load_config_groups(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  if (ec) throw Error(dir + ": error: cannot list the configurations: " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<ConfigGroups> out;
  for (const auto& f : files) {
    ConfigGroups c{std::filesystem::path(f).filename().string(), {}};
    YAML::Node root;
    try {
      root = YAML::LoadFile(f);
    } catch (const YAML::Exception& e) {
      throw Error(f + ": error: " + e.what());
    }
    const YAML::Node g = root.IsMap() && root["core"].IsMap() ? root["core"]["groups"] : YAML::Node();
    if (g && g.IsSequence())
      for (const auto& n : g) c.groups.push_back(n.as<std::string>());
    out.push_back(c);
  }
  return out;
}

std::string emit_markdown(const Isa& isa, const std::vector<ConfigGroups>& configs) {
  std::ostringstream o;
  o << "<!-- " << kHeader << " -->\n";
  o << "# Umbra ISA reference (version " << isa.version << ")\n\n";
  o << "Every instruction is one 32-bit little-endian word: an 8-bit opcode in bits 31:24 "
       "and 8-bit register fields or wider immediates below it.  Each thread has "
    << isa.registers << " 32-bit general registers r0..r" << isa.registers - 1 << "; r" << isa.zero_register
    << " always reads 0 and writes to it are discarded.  A configuration may implement fewer "
       "registers; the assembler rejects the ones it lacks.  The program counter is a byte "
       "address in the core's instruction store and advances by 4; data memory is separate, "
       "byte-addressed, little-endian, and accessed in aligned 32-bit words.\n\n";
  o << "Opcode 0x00 is not an instruction, so running into zeroed memory faults.  A field an "
       "instruction does not use must be zero; a word that breaks this is not a valid instruction.\n\n";
  o << "## Formats\n\n| format | fields (msb:lsb) | use |\n|---|---|---|\n";
  for (auto& f : isa.formats) {
    std::string fs;
    for (auto& fd : f.fields)
      fs += (fs.empty() ? "" : ", ") + fd.name + "[" + std::to_string(fd.lsb + fd.width - 1) + ":" +
            std::to_string(fd.lsb) + "]";
    o << "| " << f.name << " | " << fs << " | " << md_escape(f.doc) << " |\n";
  }
  o << "\n## Operand kinds\n\n| kind | stored bits | meaning |\n|---|---|---|\n";
  for (auto& k : isa.kinds) o << "| `" << k.name << "` | " << k.bits << " | " << md_escape(k.doc) << " |\n";
  o << "\n## Special registers (`rdsr rd, name`)\n\n| name | number | meaning |\n|---|---|---|\n";
  for (auto& s : isa.sregs) o << "| `" << s.name << "` | " << s.number << " | " << md_escape(s.doc) << " |\n";
  o << "\n## Instructions\n\n";
  o << "Encodings list the fields from bit 31 down, separated by `|`; `0` marks a field that "
       "must be zero.  Branch targets are stored as signed word offsets from the branch's own "
       "address.  The operands column gives each operand's kind (see Operand kinds above) and, "
       "for a register, whether it is read (r), written (w) or both (rw).  A memory address "
       "`rB + offset` (and an atomic's `ra`) is computed modulo 2^32: an offset that carries "
       "past 0xffffffff or below 0 wraps around, in every model; the address must then be "
       "aligned and inside data memory.  The group column names the instruction's extension "
       "group (see Extension groups below).\n";
  for (auto& c : isa.classes) {
    o << "\n### " << camel(c.name) << ": " << c.doc << "\n\n";
    o << "| mnemonic | opcode | format | group | syntax | operands | encoding | semantics |\n"
         "|---|---|---|---|---|---|---|---|\n";
    for (auto& i : isa.instrs)
      if (i.cls == c.name)
        o << "| `" << i.name << "` | " << hex2(i.opcode) << " | " << i.format << " | `" << i.group << "` | `"
          << syntax(i) << "` | " << operand_kinds(i) << " | " << md_escape(layout(isa, i)) << " | "
          << md_escape(i.semantics) << " |\n";
  }
  o << "\n## Extension groups\n\n"
       "Every instruction belongs to one group.  A configuration lists the groups its cores "
       "have in `core.groups` (docs/configuration.md); without the key it has them all.  An "
       "instruction of a group the configuration lacks is refused by `umbra-as --config`, "
       "marked by `umbra-dis --config`, and is an illegal instruction in every model (the "
       "fault names the group); the RTL builds no logic for it.  The bit is the group's bit "
       "in the RTL's `GROUPS` parameter.\n\n"
       "| group | bit | instructions | meaning |\n|---|---|---|---|\n";
  for (size_t g = 0; g < isa.groups.size(); ++g) {
    std::string names;
    for (auto& i : isa.instrs)
      if (i.group == isa.groups[g].name) names += (names.empty() ? "`" : ", `") + i.name + "`";
    o << "| `" << isa.groups[g].name << "` | " << g << " | " << names << " | " << md_escape(isa.groups[g].doc)
      << (isa.groups[g].required ? " (required: in every configuration)" : "") << " |\n";
  }
  if (!configs.empty()) {
    o << "\n### Each configuration's groups\n\n| configuration | groups |\n|---|---|\n";
    for (auto& c : configs) {
      std::string gs;
      for (auto& g : c.groups) gs += (gs.empty() ? "`" : ", `") + g + "`";
      if (c.groups.empty()) gs = "all";
      o << "| `configs/" << c.file << "` | " << gs << " |\n";
    }
  }
  if (!isa.port_ops.empty()) {
    o << "\n## Memory-port ops\n\nThese travel in the memory port's op field (`mem_req_op`) beside the "
         "opcodes of the memory instructions but are not instructions: no program can encode them, and "
         "their codes are no opcode.\n\n| name | code | meaning |\n|---|---|---|\n";
    for (auto& p : isa.port_ops)
      o << "| `" << p.name << "` | " << hex2(p.code) << " | " << md_escape(p.doc) << " |\n";
  }
  o << "\n## Floating-point semantics\n\n" << isa.fp_semantics;
  if (!isa.pseudos.empty()) {
    o << "\n## Pseudo-instructions (assembler)\n\n| syntax | expands to |\n|---|---|\n";
    for (auto& p : isa.pseudos) o << "| `" << p.syntax << "` | " << md_escape(p.expands) << " |\n";
  }
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"umbra-isagen: generate the ISA tables, RTL include and reference from isa.yaml"};
  std::string yaml, header, source, verilog, verilog_decode, markdown, uarch, uarch_header, uarch_verilog,
      configs_dir;
  app.add_option("yaml", yaml, "ISA description")->required();
  app.add_option("--cpp-header", header, "write the C++ table header here");
  app.add_option("--cpp-source", source, "write the C++ table source here");
  app.add_option("--verilog", verilog, "write the Verilog include here");
  app.add_option("--verilog-decode", verilog_decode, "write the Verilog decode-attribute function here");
  app.add_option("--markdown", markdown, "write the ISA reference here");
  app.add_option("--configs", configs_dir,
                 "directory of configurations (configs/) whose groups the reference tabulates");
  app.add_option("--uarch", uarch, "microarchitecture description (uarch.yaml)");
  app.add_option("--uarch-header", uarch_header,
                 "write the C++ microarchitecture header here (needs --uarch)");
  app.add_option("--uarch-verilog", uarch_verilog,
                 "write the Verilog microarchitecture include here (needs --uarch)");
  umbra::check_stdout_at_exit("umbra-isagen");  // its only standard output is --help
  CLI11_PARSE(app, argc, argv);
  {
    // The rule for output paths of every tool (umbra/output_files.h): no output may be
    // an input or another output; checked before anything is read or written.
    umbra::OutputFiles rule;
    rule.add_input(yaml, "the ISA description");
    rule.add_input(uarch, "the microarchitecture description");
    if (!header.empty()) rule.add(header, "", "--cpp-header");
    if (!source.empty()) rule.add(source, "", "--cpp-source");
    if (!verilog.empty()) rule.add(verilog, "", "--verilog");
    if (!verilog_decode.empty()) rule.add(verilog_decode, "", "--verilog-decode");
    if (!markdown.empty()) rule.add(markdown, "", "--markdown");
    if (!uarch_header.empty()) rule.add(uarch_header, "", "--uarch-header");
    if (!uarch_verilog.empty()) rule.add(uarch_verilog, "", "--uarch-verilog");
    try {
      rule.check();
    } catch (const umbra::OutputError& e) {
      std::fprintf(stderr, "umbra-isagen: error: %s\n", e.what());
      return 1;
    }
  }
  if (uarch.empty() && (!uarch_header.empty() || !uarch_verilog.empty())) {
    std::fprintf(stderr, "umbra-isagen: error: --uarch-header and --uarch-verilog need --uarch\n");
    return 1;
  }
  try {
    const Isa isa = load(yaml);
    // Check everything before writing anything.
    std::string decode_table = emit_verilog_decode(isa);
    Uarch u;
    if (!uarch.empty()) u = load_uarch(uarch, isa);
    g_file = yaml;
    if (!header.empty()) umbra::write_output_if_changed(header, "--cpp-header", emit_header(isa));
    if (!source.empty()) umbra::write_output_if_changed(source, "--cpp-source", emit_source(isa));
    if (!verilog.empty()) umbra::write_output_if_changed(verilog, "--verilog", emit_verilog(isa));
    if (!verilog_decode.empty())
      umbra::write_output_if_changed(verilog_decode, "--verilog-decode", decode_table);
    if (!markdown.empty())
      umbra::write_output_if_changed(
          markdown, "--markdown",
          emit_markdown(isa,
                        configs_dir.empty() ? std::vector<ConfigGroups>{} : load_config_groups(configs_dir)));
    if (!uarch_header.empty())
      umbra::write_output_if_changed(uarch_header, "--uarch-header", emit_uarch_header(isa, u));
    if (!uarch_verilog.empty())
      umbra::write_output_if_changed(uarch_verilog, "--uarch-verilog", emit_uarch_verilog(isa, u));
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const umbra::OutputError& e) {
    std::fprintf(stderr, "umbra-isagen: error: %s\n", e.what());
    return 1;
  } catch (const YAML::Exception& e) {
    // A shape load() did not expect (a map where a list belongs, say): still a
    // message with the line, not an abort.
    const std::string at = e.mark.is_null() ? "" : ":" + std::to_string(e.mark.line + 1);
    std::fprintf(stderr, "%s%s: error: %s\n", g_file.c_str(), at.c_str(), e.msg.c_str());
    return 1;
  }
  return 0;
}
