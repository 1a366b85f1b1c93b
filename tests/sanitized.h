// File: tests/sanitized.h
//
// Under AddressSanitizer and UBSan (./dev.sh sanitize) the same
// code runs many times slower. What that pass checks is memory and undefined
// behaviour, which a shorter stream through the same code paths finds as
// well: the tests whose length is what they measure (long streams, many
// clients) take a shorter one there. The uninstrumented pass runs them whole.
#ifndef RFFSTREAM_TESTS_SANITIZED_H_
#define RFFSTREAM_TESTS_SANITIZED_H_

namespace rffstream::testing {

#ifdef RFFSTREAM_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace rffstream::testing

#endif  // RFFSTREAM_TESTS_SANITIZED_H_
