// SPDX-License-Identifier: GPL-2.0-only
/// A '/' or '%' with a 64-bit operand compiles to a libgcc call
/// (__aeabi_uldivmod, __udivdi3) that the kernel does not provide on
/// 32-bit architectures: use div_u64(), div64_u64(), div_s64() or
/// do_div().
//
// Confidence: Moderate
// Options: --no-includes --include-headers

virtual report
virtual org

@r depends on report || org@
typedef u64, s64, __u64, __s64;
{u64, s64, __u64, __s64, unsigned long long, long long} e64;
expression e;
position pos;
@@

(
  e64 /@pos e
|
  e /@pos e64
|
  e64 %@pos e
|
  e %@pos e64
)

@script:python depends on report@
pos << r.pos;
@@
coccilib.report.print_report(pos[0],
	"raw 64-bit division: use div_u64()/div64_u64()/div_s64()/do_div()")

@script:python depends on org@
pos << r.pos;
@@
coccilib.org.print_todo(pos[0],
	"raw 64-bit division: use div_u64()/div64_u64()/div_s64()/do_div()")
