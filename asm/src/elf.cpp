// ELF32 little-endian executables for Umbra programs: the writer lays out exactly
// what readelf/objdump expect (program headers, .text/.data, .symtab/.strtab,
// .shstrtab), and the reader trusts nothing in the file.  Every offset, size, index
// and string is bounds-checked before use because umbra-dis and umbra-sim load files
// from anywhere (and fuzzers feed them garbage): a bad file is an ObjectError naming
// the file and the fault, never a crash.
#include <cstring>
#include <string>

#include "umbra/program.h"

namespace umbra::obj {

namespace {

// The ELF constants this file uses (from the System V gABI).
constexpr uint8_t kElfClass32 = 1, kElfData2Lsb = 1, kEvCurrent = 1;
constexpr uint16_t kEtExec = 2;
constexpr uint32_t kPtLoad = 1;
constexpr uint32_t kPfX = 1, kPfW = 2, kPfR = 4;
constexpr uint32_t kShtProgbits = 1, kShtSymtab = 2, kShtStrtab = 3, kShtNobits = 8;
constexpr uint32_t kShfWrite = 1, kShfAlloc = 2, kShfExecinstr = 4;
constexpr uint16_t kShnUndef = 0, kShnAbs = 0xfff1;
constexpr uint8_t kStbLocal = 0, kStbGlobal = 1;
constexpr uint8_t kSttNotype = 0, kSttObject = 1, kSttFunc = 2, kSttSection = 3, kSttFile = 4;
constexpr uint32_t kMaxNobitsData = 64u << 20;  // the assembler's section limit
constexpr size_t kEhdrSize = 52, kPhdrSize = 32, kShdrSize = 40, kSymSize = 16;

void put16(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  b[at] = uint8_t(v);
  b[at + 1] = uint8_t(v >> 8);
}
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}
size_t align4(size_t v) {
  return (v + 3) & ~size_t(3);
}

// A string table under construction: offset 0 is the empty string.
struct StrTab {
  std::string bytes{'\0'};
  uint32_t add(const std::string& s) {
    const uint32_t at = uint32_t(bytes.size());
    bytes += s;
    bytes += '\0';
    return at;
  }
};

struct Reader {
  const std::vector<uint8_t>& b;
  const std::string& name;

  [[noreturn]] void fail(const std::string& what) const {
    throw ObjectError(name + ": not a valid Umbra ELF file: " + what);
  }
  // Whether [off, off + len) lies inside the file, computed without overflow.
  bool fits(uint64_t off, uint64_t len) const { return off <= b.size() && len <= b.size() - off; }
  uint32_t u16(uint64_t at) const {
    if (!fits(at, 2)) fail("read past the end of the file at offset " + std::to_string(at));
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8;
  }
  uint32_t u32(uint64_t at) const {
    if (!fits(at, 4)) fail("read past the end of the file at offset " + std::to_string(at));
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
  }
};

struct Section {
  std::string name;
  uint32_t type, flags, addr, offset, size, link, info, entsize;
};

// NUL-terminated string at `off` inside the string table section `tab`.
std::string string_at(const Reader& r, const Section& tab, uint32_t off, const char* what) {
  if (off >= tab.size)
    r.fail(std::string(what) + " name offset " + std::to_string(off) + " is outside " + tab.name);
  const uint8_t* base = r.b.data() + tab.offset;
  const void* nul = std::memchr(base + off, 0, tab.size - off);
  if (!nul)
    r.fail(std::string(what) + " name at offset " + std::to_string(off) + " in " + tab.name +
           " is not terminated");
  return std::string(reinterpret_cast<const char*>(base + off),
                     size_t(static_cast<const uint8_t*>(nul) - (base + off)));
}

}  // namespace

std::vector<uint8_t> write_elf(const Program& p) {
  const bool has_data = !p.data.empty();
  const size_t nphdr = has_data ? 2 : 1;

  // Symbols: ELF wants every local before the first global.
  StrTab strtab;
  std::vector<uint8_t> symtab(kSymSize, 0);  // index 0 is the null symbol
  uint32_t first_global = 1;
  for (int pass = 0; pass < 2; ++pass) {
    for (const Symbol& s : p.symbols) {
      if (s.global != (pass == 1)) continue;
      const size_t at = symtab.size();
      symtab.resize(at + kSymSize, 0);
      put32(symtab, at, strtab.add(s.name));
      put32(symtab, at + 4, s.value);
      uint8_t type = kSttNotype;
      uint16_t shndx = kShnAbs;
      if (s.section == Symbol::Section::Text) type = kSttFunc, shndx = 1;
      if (s.section == Symbol::Section::Data) type = kSttObject, shndx = 2;
      symtab[at + 12] = uint8_t((s.global ? kStbGlobal : kStbLocal) << 4 | type);
      put16(symtab, at + 14, shndx);
      if (pass == 0) ++first_global;
    }
  }

  StrTab shstr;
  const uint32_t n_text = shstr.add(".text"), n_data = shstr.add(".data"), n_symtab = shstr.add(".symtab"),
                 n_strtab = shstr.add(".strtab"), n_shstrtab = shstr.add(".shstrtab");

  const size_t text_off = kEhdrSize + nphdr * kPhdrSize;
  const size_t text_size = p.text.size() * 4;
  const size_t data_off = align4(text_off + text_size);
  const size_t symtab_off = align4(data_off + p.data.size());
  const size_t strtab_off = symtab_off + symtab.size();
  const size_t shstrtab_off = strtab_off + strtab.bytes.size();
  const size_t shoff = align4(shstrtab_off + shstr.bytes.size());
  const size_t nsec = 6;
  std::vector<uint8_t> b(shoff + nsec * kShdrSize, 0);

  // ELF header.
  const uint8_t ident[] = {0x7f, 'E', 'L', 'F', kElfClass32, kElfData2Lsb, kEvCurrent};
  std::memcpy(b.data(), ident, sizeof ident);
  put16(b, 16, kEtExec);
  put16(b, 18, kElfMachine);
  put32(b, 20, kEvCurrent);
  put32(b, 24, p.entry);
  put32(b, 28, kEhdrSize);
  put32(b, 32, uint32_t(shoff));
  put32(b, 36, 0);  // e_flags
  put16(b, 40, kEhdrSize);
  put16(b, 42, kPhdrSize);
  put16(b, 44, uint32_t(nphdr));
  put16(b, 46, kShdrSize);
  put16(b, 48, nsec);
  put16(b, 50, 5);  // e_shstrndx

  auto phdr = [&](size_t i, size_t off, uint32_t addr, size_t size, uint32_t flags) {
    const size_t at = kEhdrSize + i * kPhdrSize;
    put32(b, at, kPtLoad);
    put32(b, at + 4, uint32_t(off));
    put32(b, at + 8, addr);
    put32(b, at + 12, addr);
    put32(b, at + 16, uint32_t(size));
    put32(b, at + 20, uint32_t(size));
    put32(b, at + 24, flags);
    put32(b, at + 28, 4);
  };
  phdr(0, text_off, p.text_base, text_size, kPfR | kPfX);
  if (has_data) phdr(1, data_off, p.data_base, p.data.size(), kPfR | kPfW);

  for (size_t i = 0; i < p.text.size(); ++i) put32(b, text_off + 4 * i, p.text[i]);
  if (has_data) std::memcpy(b.data() + data_off, p.data.data(), p.data.size());
  std::memcpy(b.data() + symtab_off, symtab.data(), symtab.size());
  std::memcpy(b.data() + strtab_off, strtab.bytes.data(), strtab.bytes.size());
  std::memcpy(b.data() + shstrtab_off, shstr.bytes.data(), shstr.bytes.size());

  auto shdr = [&](size_t i, uint32_t name, uint32_t type, uint32_t flags, uint32_t addr, size_t off,
                  size_t size, uint32_t link, uint32_t info, uint32_t align, uint32_t entsize) {
    const size_t at = shoff + i * kShdrSize;
    put32(b, at, name);
    put32(b, at + 4, type);
    put32(b, at + 8, flags);
    put32(b, at + 12, addr);
    put32(b, at + 16, uint32_t(off));
    put32(b, at + 20, uint32_t(size));
    put32(b, at + 24, link);
    put32(b, at + 28, info);
    put32(b, at + 32, align);
    put32(b, at + 36, entsize);
  };
  shdr(1, n_text, kShtProgbits, kShfAlloc | kShfExecinstr, p.text_base, text_off, text_size, 0, 0, 4, 0);
  shdr(2, n_data, kShtProgbits, kShfAlloc | kShfWrite, p.data_base, data_off, p.data.size(), 0, 0, 4, 0);
  shdr(3, n_symtab, kShtSymtab, 0, 0, symtab_off, symtab.size(), 4, first_global, 4, kSymSize);
  shdr(4, n_strtab, kShtStrtab, 0, 0, strtab_off, strtab.bytes.size(), 0, 0, 1, 0);
  shdr(5, n_shstrtab, kShtStrtab, 0, 0, shstrtab_off, shstr.bytes.size(), 0, 0, 1, 0);
  return b;
}

Program read_elf(const std::vector<uint8_t>& bytes, const std::string& name) {
  const Reader r{bytes, name};
  if (bytes.size() < kEhdrSize)
    r.fail("file is " + std::to_string(bytes.size()) + " bytes, shorter than an ELF header");
  if (std::memcmp(bytes.data(),
                  "\x7f"
                  "ELF",
                  4) != 0)
    r.fail("no ELF magic number");
  if (bytes[4] != kElfClass32) r.fail("not a 32-bit ELF file (EI_CLASS " + std::to_string(bytes[4]) + ")");
  if (bytes[5] != kElfData2Lsb)
    r.fail("not a little-endian ELF file (EI_DATA " + std::to_string(bytes[5]) + ")");
  if (bytes[6] != kEvCurrent) r.fail("unknown ELF version " + std::to_string(bytes[6]));
  if (r.u16(16) != kEtExec) r.fail("not an executable (e_type " + std::to_string(r.u16(16)) + ")");
  if (r.u16(18) != kElfMachine)
    r.fail("e_machine " + std::to_string(r.u16(18)) + " is not Umbra (" + std::to_string(kElfMachine) + ")");
  const uint32_t entry = r.u32(24);
  const uint32_t shoff = r.u32(32);
  const uint32_t shentsize = r.u16(46), shnum = r.u16(48), shstrndx = r.u16(50);
  if (shentsize != kShdrSize) r.fail("section header size " + std::to_string(shentsize) + " is not 40");
  if (shnum == 0) r.fail("no section headers");
  if (!r.fits(shoff, uint64_t(shnum) * kShdrSize))
    r.fail("section header table runs past the end of the file");
  if (shstrndx >= shnum) r.fail("section name table index " + std::to_string(shstrndx) + " out of range");

  std::vector<Section> secs(shnum);
  for (uint32_t i = 0; i < shnum; ++i) {
    const uint64_t at = shoff + uint64_t(i) * kShdrSize;
    Section& s = secs[i];
    s.type = r.u32(at + 4), s.flags = r.u32(at + 8), s.addr = r.u32(at + 12), s.offset = r.u32(at + 16),
    s.size = r.u32(at + 20), s.link = r.u32(at + 24), s.info = r.u32(at + 28), s.entsize = r.u32(at + 36);
    if (s.type != kShtNobits && !r.fits(s.offset, s.size))
      r.fail("section " + std::to_string(i) + " (offset " + std::to_string(s.offset) + ", size " +
             std::to_string(s.size) + ") runs past the end of the file");
  }
  const Section& shstr = secs[shstrndx];
  if (shstr.type != kShtStrtab) r.fail("section name table is not a string table");
  for (uint32_t i = 1; i < shnum; ++i)
    secs[i].name = string_at(r, shstr, r.u32(shoff + uint64_t(i) * kShdrSize), "section");

  Program p;
  int text_idx = -1, data_idx = -1, symtab_idx = -1;
  for (uint32_t i = 1; i < shnum; ++i) {
    const Section& s = secs[i];
    if (s.name == ".text") {
      if (text_idx >= 0) r.fail("two .text sections");
      if (s.type != kShtProgbits) r.fail(".text is not PROGBITS");
      if (s.size % 4 != 0) r.fail(".text size " + std::to_string(s.size) + " is not a multiple of 4");
      if (s.addr % 4 != 0) r.fail(".text address " + std::to_string(s.addr) + " is not a multiple of 4");
      text_idx = int(i);
    } else if (s.name == ".data") {
      if (data_idx >= 0) r.fail("two .data sections");
      if (s.type != kShtProgbits && s.type != kShtNobits) r.fail(".data is neither PROGBITS nor NOBITS");
      data_idx = int(i);
    } else if (s.type == kShtSymtab) {
      if (symtab_idx >= 0) r.fail("two symbol tables");
      symtab_idx = int(i);
    }
  }
  if (text_idx < 0) r.fail("no .text section");
  const Section& text = secs[text_idx];
  p.text_base = text.addr;
  p.text.resize(text.size / 4);
  for (size_t i = 0; i < p.text.size(); ++i) p.text[i] = r.u32(uint64_t(text.offset) + 4 * i);
  if (data_idx >= 0) {
    const Section& data = secs[data_idx];
    p.data_base = data.addr;
    // A NOBITS size costs no file bytes, so it alone could demand gigabytes.
    if (data.type == kShtNobits && data.size > kMaxNobitsData)
      r.fail(".data (NOBITS) of " + std::to_string(data.size) + " bytes is larger than 64 MiB");
    if (data.type == kShtNobits)
      p.data.assign(data.size, 0);
    else
      p.data.assign(bytes.begin() + data.offset, bytes.begin() + data.offset + data.size);
    if (uint64_t(p.data_base) + p.data.size() > (uint64_t(1) << 32))
      r.fail(".data extends past address 2^32");
  }
  if (uint64_t(p.text_base) + uint64_t(text.size) > (uint64_t(1) << 32))
    r.fail(".text extends past address 2^32");
  const uint64_t text_end = uint64_t(p.text_base) + text.size;
  if (entry % 4 != 0 || entry < p.text_base ||
      (entry >= text_end && !(p.text.empty() && entry == p.text_base)))
    r.fail("entry point " + std::to_string(entry) + " is not a word address inside .text");
  p.entry = entry;

  if (symtab_idx >= 0) {
    const Section& st = secs[symtab_idx];
    if (st.entsize != kSymSize) r.fail("symbol entry size " + std::to_string(st.entsize) + " is not 16");
    if (st.size % kSymSize != 0) r.fail("symbol table size is not a multiple of 16");
    if (st.link == 0 || st.link >= shnum || secs[st.link].type != kShtStrtab)
      r.fail("symbol table does not link to a string table");
    const Section& names = secs[st.link];
    for (uint64_t at = st.offset + kSymSize; at < uint64_t(st.offset) + st.size; at += kSymSize) {
      const uint32_t info = bytes[at + 12];
      const uint32_t type = info & 0xf, bind = info >> 4;
      if (type == kSttSection || type == kSttFile) continue;
      const uint32_t shndx = r.u16(at + 14);
      Symbol s;
      s.name = string_at(r, names, r.u32(at), "symbol");
      s.value = r.u32(at + 4);
      s.global = bind == kStbGlobal;
      if (shndx == kShnAbs)
        s.section = Symbol::Section::Abs;
      else if (int(shndx) == text_idx)
        s.section = Symbol::Section::Text;
      else if (int(shndx) == data_idx)
        s.section = Symbol::Section::Data;
      else if (shndx == kShnUndef)
        r.fail("symbol '" + s.name + "' is undefined (a program must be fully linked)");
      else
        r.fail("symbol '" + s.name + "' is in section " + std::to_string(shndx) +
               ", neither .text nor .data");
      if (bind != kStbLocal && bind != kStbGlobal)
        r.fail("symbol '" + s.name + "' has binding " + std::to_string(bind));
      p.symbols.push_back(std::move(s));
    }
  }
  return p;
}

}  // namespace umbra::obj
