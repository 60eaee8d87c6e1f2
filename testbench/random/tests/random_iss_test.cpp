// Random programs (randprog.h) on the reference simulator and the SystemC model: every
// thread must exit, and final data memory must match the ISS byte for byte.  The seeds
// are split into shards so that ctest can run them in parallel and a failure names its
// shard; every failing seed is reported with the command that replays it.
//
// UMBRA_RANDOM_SEEDS (default 200) seeds from UMBRA_RANDOM_FIRST (default 1), of
// UMBRA_RANDOM_LENGTH (default 120) statements, on the default configuration.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "randcheck.h"
#include "umbra/models.h"

namespace umbra::randprog {
namespace {

constexpr unsigned kShards = 10;

uint64_t env(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

class RandomSystemc : public ::testing::TestWithParam<unsigned> {};

TEST_P(RandomSystemc, MatchesTheReferenceSimulator) {
  const uint64_t seeds = env("UMBRA_RANDOM_SEEDS", 200), first = env("UMBRA_RANDOM_FIRST", 1);
  const unsigned length = unsigned(env("UMBRA_RANDOM_LENGTH", 120));
  const Config cfg;
  uint64_t cycles = 0, instructions = 0, ran = 0;
  for (uint64_t i = GetParam(); i < seeds; i += kShards) {
    Options o;
    o.seed = first + i;
    o.length = length;
    const SeedResult r = check_model(models::find("systemc"), cfg, o);
    EXPECT_TRUE(r.passed) << r.line();
    cycles += r.cycles;
    instructions += r.iss_instructions;
    ++ran;
  }
  std::printf("shard %u: %llu seeds, %llu instructions, %llu SystemC cycles\n", GetParam(),
              (unsigned long long)ran, (unsigned long long)instructions, (unsigned long long)cycles);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomSystemc, ::testing::Range(0u, kShards));

}  // namespace
}  // namespace umbra::randprog
