/* libgaia2clock.so: the simulated clock for every dynamically linked program on the agent's side
 * (docs/contract.md, "The agent's clock"). Loaded into every process through /etc/ld.so.preload,
 * so no program can drop it from its environment; it is active only in a process whose real uid
 * is the clock file's agent_uid and that did not start with GAIA2_REAL_CLOCK=1 (our own runtimes'
 * bookkeeping), and only when the clock file is there and valid at the process's start. Anywhere
 * else every call goes straight to the C library.
 *
 * Active, it answers from the mapped clock file (one CLOCK_MONOTONIC read, no file I/O):
 *   - wall-clock reads: clock_gettime (REALTIME family), gettimeofday, time, timespec_get;
 *   - absolute REALTIME deadlines (pthread condvars, semaphores, mutexes, rwlocks, joins, C11
 *     threads, message queues, clock_nanosleep TIMER_ABSTIME): the simulated deadline becomes a
 *     monotonic one at the clock's current rate, waited for in slices of at most a second, so a
 *     hold or a fast-forward jump of the clock is seen within one;
 *   - file times: the stat family shifts them real -> simulated, the utime family simulated -> real,
 *     by the current difference between the two clocks (so `touch f; date -r f` is now).
 * Not faked: relative sleeps and timeouts (they measure durations), CLOCK_MONOTONIC/BOOTTIME,
 * POSIX and fd timers, raw system calls that bypass the C library, and the clock that TLS
 * libraries check certificates against (below). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <mqueue.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <threads.h>
#include <utime.h>
#include "simclock.h"

#define EXPORT __attribute__((visibility("default")))

/* Longest single real wait for a simulated deadline: a hold or a jump of the clock is seen this soon. */
#define G2_SLICE_NS G2_NS

#if defined(__x86_64__)
#define G2_GLIBC_BASE "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define G2_GLIBC_BASE "GLIBC_2.17"
#else
#define G2_GLIBC_BASE NULL
#endif

/* NULL: this process reads the real clock (inactive). */
static const struct g2_clock_file *g2_clock;
/* CLOCK_TAI - CLOCK_REALTIME of the real clocks (leap seconds; 0 where nobody set it). */
static int64_t g2_tai_offset;

/* The C library's own function `name`: the default version, else the base one (symbols that newer
 * C libraries keep only for old binaries, such as __xstat). Found on first use. */
static void *g2_next(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);
	if (!p && G2_GLIBC_BASE) p = dlvsym(RTLD_NEXT, name, G2_GLIBC_BASE);
	return p;
}
#define REAL_DECL(name)                                                         \
	static __typeof__(&name) real_##name;                                       \
	static inline __typeof__(&name) g2_real_##name(void)                        \
	{                                                                           \
		if (!real_##name) real_##name = (__typeof__(&name))g2_next(#name); \
		return real_##name;                                                 \
	}
#define REAL(name) (g2_real_##name())

REAL_DECL(clock_gettime);

static int64_t g2_mono_now(void)
{
	struct timespec ts;
	REAL(clock_gettime)(CLOCK_MONOTONIC, &ts);
	return g2_ts_ns(&ts);
}

static int64_t g2_sim_now(void)
{
	struct g2_anchor a;
	g2_clock_read(g2_clock, &a);
	return g2_sim_at(&a, g2_mono_now());
}

/* Simulated minus real time now: what a file time is shifted by. */
static int64_t g2_offset(void)
{
	struct g2_anchor a;
	g2_clock_read(g2_clock, &a);
	int64_t mono = g2_mono_now();
	return g2_sim_at(&a, mono) - (mono + a.real_minus_mono_ns);
}

REAL_DECL(gettimeofday);
REAL_DECL(time);
REAL_DECL(timespec_get);

__attribute__((constructor)) static void g2_init(void)
{
	/* the readers' real functions now, not at a first call that may come in a signal handler */
	REAL(clock_gettime);
	REAL(gettimeofday);
	REAL(time);
	REAL(timespec_get);
	if (g2_real_clock_wanted()) return;
	const struct g2_clock_file *f = g2_clock_map();
	if (!f) return;
	struct g2_anchor a;
	g2_clock_read(f, &a);
	if (getuid() != a.agent_uid) {
		munmap((void *)f, sizeof *f);
		return;
	}
	struct timespec real, tai;
	if (REAL(clock_gettime)(CLOCK_REALTIME, &real) == 0 && REAL(clock_gettime)(CLOCK_TAI, &tai) == 0)
		g2_tai_offset = (g2_ts_ns(&tai) - g2_ts_ns(&real) + G2_NS / 2) / G2_NS * G2_NS;
	__atomic_store_n(&g2_clock, f, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------ reading the time */

/* TLS libraries check certificates against the real clock: a certificate issued after the
 * scenario's simulated date would otherwise be "not yet valid", and every HTTPS connection an
 * agent program makes (to its model, without the model gateway) would fail. A wall-clock read
 * whose caller is in libcrypto, libssl or libgnutls, or in an OpenSSL certificate-time function
 * built into the program (node exports X509_cmp_time and X509_time_adj_ex), gets the real time.
 * Each call site is looked up once (dladdr) and remembered: (address << 1) | real, in a small
 * table filled lock-free; a full table only means more lookups. */
#define G2_SITES 512
static uint64_t g2_sites[G2_SITES];

static int g2_tls_site(uintptr_t ra)
{
	Dl_info di;
	if (!dladdr((void *)ra, &di)) return 0;
	const char *base = di.dli_fname ? strrchr(di.dli_fname, '/') : NULL;
	base = base ? base + 1 : di.dli_fname;
	if (base && (!strncmp(base, "libcrypto.so", 12) || !strncmp(base, "libssl.so", 9) || !strncmp(base, "libgnutls.so", 12)))
		return 1;
	return di.dli_sname && (!strncmp(di.dli_sname, "X509_cmp_", 9) || !strncmp(di.dli_sname, "X509_time_adj", 13));
}

static int g2_caller_real(uintptr_t ra)
{
	unsigned h = (unsigned)((ra >> 2) * 2654435761u) % G2_SITES;
	for (unsigned i = 0; i < 16; i++) {
		uint64_t v = __atomic_load_n(&g2_sites[(h + i) % G2_SITES], __ATOMIC_ACQUIRE);
		if (v == 0) break;
		if (v >> 1 == ra) return (int)(v & 1);
	}
	int real = g2_tls_site(ra);
	uint64_t want = ((uint64_t)ra << 1) | (uint64_t)real;
	for (unsigned i = 0; i < 16; i++) {
		uint64_t none = 0;
		if (__atomic_compare_exchange_n(&g2_sites[(h + i) % G2_SITES], &none, want, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) break;
		if (none == want) break;
	}
	return real;
}
#define G2_CALLER_REAL() g2_caller_real((uintptr_t)__builtin_return_address(0))

EXPORT int clock_gettime(clockid_t id, struct timespec *tp)
{
	if (!g2_clock || !g2_is_realtime(id) || G2_CALLER_REAL()) return REAL(clock_gettime)(id, tp);
	*tp = g2_ns_ts(g2_sim_now() + (id == CLOCK_TAI ? g2_tai_offset : 0));
	return 0;
}

EXPORT int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	if (!g2_clock || G2_CALLER_REAL()) return REAL(gettimeofday)(tv, tz);
	struct timeval real;
	if (tz && REAL(gettimeofday)(&real, tz) != 0) return -1; /* the time zone, as the kernel keeps it */
	/* glibc declares tv non-null, yet the kernel takes NULL (a call for the time zone only): the
	 * volatile copy keeps the compiler from dropping the check */
	struct timeval *volatile out = tv;
	if (out) {
		struct timespec ts = g2_ns_ts(g2_sim_now());
		out->tv_sec = ts.tv_sec;
		out->tv_usec = ts.tv_nsec / 1000;
	}
	return 0;
}

EXPORT time_t time(time_t *t)
{
	if (!g2_clock || G2_CALLER_REAL()) return REAL(time)(t);
	time_t now = (time_t)g2_ns_ts(g2_sim_now()).tv_sec;
	if (t) *t = now;
	return now;
}

EXPORT int timespec_get(struct timespec *ts, int base)
{
	if (!g2_clock || base != TIME_UTC || G2_CALLER_REAL()) return REAL(timespec_get)(ts, base);
	*ts = g2_ns_ts(g2_sim_now());
	return base;
}

/* ------------------------------------------------------------------ absolute deadlines */

static int g2_valid(const struct timespec *ts)
{
	return ts && ts->tv_nsec >= 0 && ts->tv_nsec < G2_NS;
}

/* The CLOCK_MONOTONIC deadline of the next real wait towards simulated time `want`: the real time
 * left at the clock's rate, at most one slice (a held clock: one slice). *reached: already there. */
static int64_t g2_mono_deadline(int64_t want, int *reached)
{
	struct g2_anchor a;
	g2_clock_read(g2_clock, &a);
	int64_t mono = g2_mono_now();
	int64_t left = want - g2_sim_at(&a, mono);
	*reached = left <= 0;
	if (left <= 0) return mono;
	if (a.rate <= 0) return mono + G2_SLICE_NS;
	double real_left = (double)left / a.rate;
	return real_left >= (double)G2_SLICE_NS ? mono + G2_SLICE_NS : mono + (int64_t)real_left + 1;
}

/* The same deadline on the real CLOCK_REALTIME, for calls that take no clock id. */
static int64_t g2_real_deadline(int64_t want, int *reached)
{
	int64_t mono = g2_mono_deadline(want, reached);
	struct timespec m, r;
	REAL(clock_gettime)(CLOCK_REALTIME, &r);
	REAL(clock_gettime)(CLOCK_MONOTONIC, &m);
	return g2_ts_ns(&r) + (mono - g2_ts_ns(&m));
}

static int g2_reached(int64_t want)
{
	return g2_sim_now() >= want;
}

REAL_DECL(clock_nanosleep);
EXPORT int clock_nanosleep(clockid_t id, int flags, const struct timespec *req, struct timespec *rem)
{
	if (!g2_clock || !(flags & TIMER_ABSTIME) || !g2_is_realtime(id) || !g2_valid(req))
		return REAL(clock_nanosleep)(id, flags, req, rem);
	int64_t want = g2_ts_ns(req) - (id == CLOCK_TAI ? g2_tai_offset : 0);
	for (;;) {
		int reached;
		struct timespec m = g2_ns_ts(g2_mono_deadline(want, &reached));
		if (reached) return 0;
		int r = REAL(clock_nanosleep)(CLOCK_MONOTONIC, TIMER_ABSTIME, &m, NULL);
		if (r != 0) return r; /* EINTR: an absolute sleep has nothing left to report */
	}
}

/* Condition variables: one real wait, at most a slice long; a slice that ends before the simulated
 * deadline is a spurious wake-up (POSIX allows them; callers check their predicate and wait again),
 * never a lost signal. */
REAL_DECL(pthread_cond_clockwait);
static int g2_cond_wait(pthread_cond_t *c, pthread_mutex_t *mx, const struct timespec *abs)
{
	int64_t want = g2_ts_ns(abs);
	int reached;
	struct timespec m = g2_ns_ts(g2_mono_deadline(want, &reached));
	int r = REAL(pthread_cond_clockwait)(c, mx, CLOCK_MONOTONIC, &m);
	return r == ETIMEDOUT && !reached && !g2_reached(want) ? 0 : r;
}

/* A condvar made with pthread_condattr_setclock(CLOCK_MONOTONIC) keeps its deadlines (the clock
 * bit glibc keeps in __wrefs since 2.25). */
static int g2_cond_is_monotonic(const pthread_cond_t *c)
{
	return (__atomic_load_n(&c->__data.__wrefs, __ATOMIC_RELAXED) & 2) != 0;
}

#if defined(__x86_64__)
/* Two versions in glibc: 2.3.2 (the condvars of today) and 2.2.5 (binaries from before 2003,
 * whose condvars glibc wraps); each call reaches the real function of its own version. */
__asm__(".symver g2_cond_timedwait_232, pthread_cond_timedwait@@GLIBC_2.3.2");
__asm__(".symver g2_cond_timedwait_225, pthread_cond_timedwait@GLIBC_2.2.5");
static int (*real_cond_timedwait_232)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
static int (*real_cond_timedwait_225)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);

EXPORT int g2_cond_timedwait_232(pthread_cond_t *c, pthread_mutex_t *mx, const struct timespec *abs)
{
	if (!real_cond_timedwait_232) real_cond_timedwait_232 = dlvsym(RTLD_NEXT, "pthread_cond_timedwait", "GLIBC_2.3.2");
	if (!g2_clock || !g2_valid(abs) || g2_cond_is_monotonic(c)) return real_cond_timedwait_232(c, mx, abs);
	return g2_cond_wait(c, mx, abs);
}

EXPORT int g2_cond_timedwait_225(pthread_cond_t *c, pthread_mutex_t *mx, const struct timespec *abs)
{
	if (!real_cond_timedwait_225) real_cond_timedwait_225 = dlvsym(RTLD_NEXT, "pthread_cond_timedwait", "GLIBC_2.2.5");
	if (!g2_clock || !g2_valid(abs)) return real_cond_timedwait_225(c, mx, abs);
	int64_t want = g2_ts_ns(abs);
	int reached;
	struct timespec r = g2_ns_ts(g2_real_deadline(want, &reached));
	int rc = real_cond_timedwait_225(c, mx, &r);
	return rc == ETIMEDOUT && !reached && !g2_reached(want) ? 0 : rc;
}
#else
REAL_DECL(pthread_cond_timedwait);
EXPORT int pthread_cond_timedwait(pthread_cond_t *restrict c, pthread_mutex_t *restrict mx, const struct timespec *restrict abs)
{
	if (!g2_clock || !g2_valid(abs) || g2_cond_is_monotonic(c)) return REAL(pthread_cond_timedwait)(c, mx, abs);
	return g2_cond_wait(c, mx, abs);
}
#endif

EXPORT int pthread_cond_clockwait(pthread_cond_t *restrict c, pthread_mutex_t *restrict mx, clockid_t id, const struct timespec *restrict abs)
{
	if (!g2_clock || id != CLOCK_REALTIME || !g2_valid(abs)) return REAL(pthread_cond_clockwait)(c, mx, id, abs);
	return g2_cond_wait(c, mx, abs);
}

REAL_DECL(cnd_timedwait);
EXPORT int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict mx, const struct timespec *restrict abs)
{
	if (!g2_clock || !g2_valid(abs)) return REAL(cnd_timedwait)(c, mx, abs);
	/* glibc's C11 condvars and mutexes are its pthread ones, on CLOCK_REALTIME */
	int r = g2_cond_wait((pthread_cond_t *)c, (pthread_mutex_t *)mx, abs);
	return r == 0 ? thrd_success : r == ETIMEDOUT ? thrd_timedout : thrd_error;
}

/* Waits that can be taken up again without losing anything (a semaphore, a lock, a join): slices
 * until the simulated deadline. `wait` makes one monotonic attempt; its result is an errno value. */
#define G2_SLICED(want, attempt)                                                   \
	for (;;) {                                                                   \
		int reached;                                                             \
		struct timespec m = g2_ns_ts(g2_mono_deadline((want), &reached));        \
		int r = (attempt);                                                       \
		if (r != ETIMEDOUT || reached || g2_reached(want)) return r;             \
	}

REAL_DECL(sem_clockwait);
static int g2_sem_wait(sem_t *s, int64_t want)
{
	/* sem_* return -1 and set errno: made an errno value for the loop, and back */
	G2_SLICED(want, REAL(sem_clockwait)(s, CLOCK_MONOTONIC, &m) == 0 ? 0 : (errno == ETIMEDOUT ? ETIMEDOUT : -1))
}
static int g2_sem_result(int r)
{
	if (r == 0) return 0;
	if (r == ETIMEDOUT) errno = ETIMEDOUT;
	return -1;
}

REAL_DECL(sem_timedwait);
EXPORT int sem_timedwait(sem_t *restrict s, const struct timespec *restrict abs)
{
	if (!g2_clock || !g2_valid(abs)) return REAL(sem_timedwait)(s, abs);
	return g2_sem_result(g2_sem_wait(s, g2_ts_ns(abs)));
}

EXPORT int sem_clockwait(sem_t *restrict s, clockid_t id, const struct timespec *restrict abs)
{
	if (!g2_clock || id != CLOCK_REALTIME || !g2_valid(abs)) return REAL(sem_clockwait)(s, id, abs);
	return g2_sem_result(g2_sem_wait(s, g2_ts_ns(abs)));
}

REAL_DECL(pthread_mutex_clocklock);
REAL_DECL(pthread_mutex_timedlock);
/* One attempt on a mutex; a priority-inheritance mutex the kernel can only time on CLOCK_REALTIME
 * (EINVAL for the monotonic clock) gets the real-time deadline instead. */
static int g2_mutex_attempt(pthread_mutex_t *mx, const struct timespec *mono, int64_t want)
{
	int r = REAL(pthread_mutex_clocklock)(mx, CLOCK_MONOTONIC, mono);
	if (r != EINVAL) return r;
	int reached;
	struct timespec real = g2_ns_ts(g2_real_deadline(want, &reached));
	return REAL(pthread_mutex_timedlock)(mx, &real);
}
static int g2_mutex_lock(pthread_mutex_t *mx, int64_t want)
{
	G2_SLICED(want, g2_mutex_attempt(mx, &m, want))
}

EXPORT int pthread_mutex_timedlock(pthread_mutex_t *restrict mx, const struct timespec *restrict abs)
{
	if (!g2_clock || !g2_valid(abs)) return REAL(pthread_mutex_timedlock)(mx, abs);
	return g2_mutex_lock(mx, g2_ts_ns(abs));
}

EXPORT int pthread_mutex_clocklock(pthread_mutex_t *restrict mx, clockid_t id, const struct timespec *restrict abs)
{
	if (!g2_clock || id != CLOCK_REALTIME || !g2_valid(abs)) return REAL(pthread_mutex_clocklock)(mx, id, abs);
	return g2_mutex_lock(mx, g2_ts_ns(abs));
}

REAL_DECL(mtx_timedlock);
EXPORT int mtx_timedlock(mtx_t *restrict mx, const struct timespec *restrict abs)
{
	if (!g2_clock || !g2_valid(abs)) return REAL(mtx_timedlock)(mx, abs);
	int r = g2_mutex_lock((pthread_mutex_t *)mx, g2_ts_ns(abs));
	return r == 0 ? thrd_success : r == ETIMEDOUT ? thrd_timedout : thrd_error;
}

/* Read-write locks: the timed call and the clock call of each kind, on the clock call's real. */
#define G2_RWLOCK(kind)                                                                                         \
	REAL_DECL(pthread_rwlock_clock##kind##lock);                                                                \
	REAL_DECL(pthread_rwlock_timed##kind##lock);                                                                \
	static int g2_rwlock_##kind(pthread_rwlock_t *l, int64_t want)                                              \
	{                                                                                                           \
		G2_SLICED(want, REAL(pthread_rwlock_clock##kind##lock)(l, CLOCK_MONOTONIC, &m))                     \
	}                                                                                                           \
	EXPORT int pthread_rwlock_timed##kind##lock(pthread_rwlock_t *restrict l, const struct timespec *restrict abs) \
	{                                                                                                           \
		if (!g2_clock || !g2_valid(abs)) return REAL(pthread_rwlock_timed##kind##lock)(l, abs);            \
		return g2_rwlock_##kind(l, g2_ts_ns(abs));                                                          \
	}                                                                                                           \
	EXPORT int pthread_rwlock_clock##kind##lock(pthread_rwlock_t *restrict l, clockid_t id,                   \
						   const struct timespec *restrict abs)                                     \
	{                                                                                                           \
		if (!g2_clock || id != CLOCK_REALTIME || !g2_valid(abs))                                           \
			return REAL(pthread_rwlock_clock##kind##lock)(l, id, abs);                                  \
		return g2_rwlock_##kind(l, g2_ts_ns(abs));                                                          \
	}
G2_RWLOCK(rd)
G2_RWLOCK(wr)

REAL_DECL(pthread_clockjoin_np);
REAL_DECL(pthread_timedjoin_np);
static int g2_join(pthread_t t, void **ret, int64_t want)
{
	G2_SLICED(want, REAL(pthread_clockjoin_np)(t, ret, CLOCK_MONOTONIC, &m))
}

EXPORT int pthread_timedjoin_np(pthread_t t, void **ret, const struct timespec *abs)
{
	if (!g2_clock || !g2_valid(abs)) return REAL(pthread_timedjoin_np)(t, ret, abs);
	return g2_join(t, ret, g2_ts_ns(abs));
}

EXPORT int pthread_clockjoin_np(pthread_t t, void **ret, clockid_t id, const struct timespec *abs)
{
	if (!g2_clock || id != CLOCK_REALTIME || !g2_valid(abs)) return REAL(pthread_clockjoin_np)(t, ret, id, abs);
	return g2_join(t, ret, g2_ts_ns(abs));
}

/* Message queues take no clock id: slices of real-time deadlines. */
#define G2_MQ_SLICED(want, call)                                                                   \
	for (;;) {                                                                                   \
		int reached;                                                                             \
		struct timespec real = g2_ns_ts(g2_real_deadline((want), &reached));                     \
		__typeof__(call) r = (call);                                                             \
		if (r != -1 || errno != ETIMEDOUT || reached || g2_reached(want)) return r;              \
	}

REAL_DECL(mq_timedsend);
EXPORT int mq_timedsend(mqd_t q, const char *msg, size_t len, unsigned prio, const struct timespec *abs)
{
	if (!g2_clock || !g2_valid(abs)) return REAL(mq_timedsend)(q, msg, len, prio, abs);
	int64_t want = g2_ts_ns(abs);
	G2_MQ_SLICED(want, REAL(mq_timedsend)(q, msg, len, prio, &real))
}

REAL_DECL(mq_timedreceive);
EXPORT ssize_t mq_timedreceive(mqd_t q, char *restrict msg, size_t len, unsigned *restrict prio, const struct timespec *restrict abs)
{
	if (!g2_clock || !g2_valid(abs)) return REAL(mq_timedreceive)(q, msg, len, prio, abs);
	int64_t want = g2_ts_ns(abs);
	G2_MQ_SLICED(want, REAL(mq_timedreceive)(q, msg, len, prio, &real))
}

/* ------------------------------------------------------------------ file times */

static void g2_shift(struct timespec *t, int64_t off)
{
	*t = g2_ns_ts(g2_ts_ns(t) + off);
}

static void g2_shift_stat(struct stat *st)
{
	int64_t off = g2_offset();
	g2_shift(&st->st_atim, off);
	g2_shift(&st->st_mtim, off);
	g2_shift(&st->st_ctim, off);
}

/* On the 64-bit targets struct stat64 is struct stat. */
_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "struct stat64 is struct stat");

#define G2_STAT(name, params, args)                        \
	REAL_DECL(name);                                             \
	EXPORT int name params                                       \
	{                                                            \
		int r = REAL(name) args;                                 \
		if (r == 0 && g2_clock) g2_shift_stat((struct stat *)st); \
		return r;                                                \
	}
G2_STAT(stat, (const char *restrict path, struct stat *restrict st), (path, st))
G2_STAT(stat64, (const char *restrict path, struct stat64 *restrict st), (path, st))
G2_STAT(lstat, (const char *restrict path, struct stat *restrict st), (path, st))
G2_STAT(lstat64, (const char *restrict path, struct stat64 *restrict st), (path, st))
G2_STAT(fstat, (int fd, struct stat *st), (fd, st))
G2_STAT(fstat64, (int fd, struct stat64 *st), (fd, st))
G2_STAT(fstatat, (int dir, const char *restrict path, struct stat *restrict st, int flags), (dir, path, st, flags))
G2_STAT(fstatat64, (int dir, const char *restrict path, struct stat64 *restrict st, int flags), (dir, path, st, flags))

/* glibc's stat entry points of binaries built before 2.33 (compatibility symbols there on). */
int __xstat(int ver, const char *path, struct stat *st);
int __xstat64(int ver, const char *path, struct stat64 *st);
int __lxstat(int ver, const char *path, struct stat *st);
int __lxstat64(int ver, const char *path, struct stat64 *st);
int __fxstat(int ver, int fd, struct stat *st);
int __fxstat64(int ver, int fd, struct stat64 *st);
int __fxstatat(int ver, int dir, const char *path, struct stat *st, int flags);
int __fxstatat64(int ver, int dir, const char *path, struct stat64 *st, int flags);
G2_STAT(__xstat, (int ver, const char *path, struct stat *st), (ver, path, st))
G2_STAT(__xstat64, (int ver, const char *path, struct stat64 *st), (ver, path, st))
G2_STAT(__lxstat, (int ver, const char *path, struct stat *st), (ver, path, st))
G2_STAT(__lxstat64, (int ver, const char *path, struct stat64 *st), (ver, path, st))
G2_STAT(__fxstat, (int ver, int fd, struct stat *st), (ver, fd, st))
G2_STAT(__fxstat64, (int ver, int fd, struct stat64 *st), (ver, fd, st))
G2_STAT(__fxstatat, (int ver, int dir, const char *path, struct stat *st, int flags), (ver, dir, path, st, flags))
G2_STAT(__fxstatat64, (int ver, int dir, const char *path, struct stat64 *st, int flags), (ver, dir, path, st, flags))

static void g2_shift_statx(struct statx_timestamp *t, int64_t off)
{
	struct timespec ts = { .tv_sec = t->tv_sec, .tv_nsec = t->tv_nsec };
	g2_shift(&ts, off);
	t->tv_sec = ts.tv_sec;
	t->tv_nsec = (uint32_t)ts.tv_nsec;
}

REAL_DECL(statx);
EXPORT int statx(int dir, const char *restrict path, int flags, unsigned int mask, struct statx *restrict st)
{
	int r = REAL(statx)(dir, path, flags, mask, st);
	if (r != 0 || !g2_clock) return r;
	int64_t off = g2_offset();
	if (st->stx_mask & STATX_ATIME) g2_shift_statx(&st->stx_atime, off);
	if (st->stx_mask & STATX_MTIME) g2_shift_statx(&st->stx_mtime, off);
	if (st->stx_mask & STATX_CTIME) g2_shift_statx(&st->stx_ctime, off);
	if (st->stx_mask & STATX_BTIME) g2_shift_statx(&st->stx_btime, off);
	return r;
}

/* Times to set, simulated -> real (UTIME_NOW and UTIME_OMIT stay what they are). NULL: now. */
static const struct timespec *g2_real_times(const struct timespec in[2], struct timespec out[2])
{
	if (!in || !g2_clock) return in;
	int64_t off = g2_offset();
	for (int i = 0; i < 2; i++) {
		out[i] = in[i];
		if (in[i].tv_nsec != UTIME_NOW && in[i].tv_nsec != UTIME_OMIT) g2_shift(&out[i], -off);
	}
	return out;
}

static const struct timeval *g2_real_timevals(const struct timeval in[2], struct timeval out[2])
{
	if (!in || !g2_clock) return in;
	int64_t off = g2_offset();
	for (int i = 0; i < 2; i++) {
		struct timespec ts = { .tv_sec = in[i].tv_sec, .tv_nsec = in[i].tv_usec * 1000 };
		g2_shift(&ts, -off);
		out[i].tv_sec = ts.tv_sec;
		out[i].tv_usec = ts.tv_nsec / 1000;
	}
	return out;
}

REAL_DECL(utimensat);
EXPORT int utimensat(int dir, const char *path, const struct timespec times[2], int flags)
{
	struct timespec real[2];
	return REAL(utimensat)(dir, path, g2_real_times(times, real), flags);
}

REAL_DECL(futimens);
EXPORT int futimens(int fd, const struct timespec times[2])
{
	struct timespec real[2];
	return REAL(futimens)(fd, g2_real_times(times, real));
}

REAL_DECL(utimes);
EXPORT int utimes(const char *path, const struct timeval tv[2])
{
	struct timeval real[2];
	return REAL(utimes)(path, g2_real_timevals(tv, real));
}

REAL_DECL(lutimes);
EXPORT int lutimes(const char *path, const struct timeval tv[2])
{
	struct timeval real[2];
	return REAL(lutimes)(path, g2_real_timevals(tv, real));
}

REAL_DECL(futimes);
EXPORT int futimes(int fd, const struct timeval tv[2])
{
	struct timeval real[2];
	return REAL(futimes)(fd, g2_real_timevals(tv, real));
}

REAL_DECL(futimesat);
EXPORT int futimesat(int dir, const char *path, const struct timeval tv[2])
{
	struct timeval real[2];
	return REAL(futimesat)(dir, path, g2_real_timevals(tv, real));
}

REAL_DECL(utime);
EXPORT int utime(const char *path, const struct utimbuf *times)
{
	if (!times || !g2_clock) return REAL(utime)(path, times);
	struct timeval in[2] = { { .tv_sec = times->actime }, { .tv_sec = times->modtime } }, out[2];
	g2_real_timevals(in, out);
	struct utimbuf real = { .actime = out[0].tv_sec, .modtime = out[1].tv_sec };
	return REAL(utime)(path, &real);
}
