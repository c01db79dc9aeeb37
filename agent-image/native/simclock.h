/* The simulated clock file, as both readers see it (the preload library gaia2-clock.c and the
 * exec helper simclock-exec.c). The layout and the rules are agent-image/src/contract/sim-clock.ts:
 * 64 bytes written by the world daemon, a line through one anchor, a seqlock around the fields.
 * Everything here is static inline: each reader is one C file plus this header. */
#ifndef GAIA2_SIMCLOCK_H
#define GAIA2_SIMCLOCK_H

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define G2_CLOCK_FILE "/run/gaia2/clock"
#define G2_CLOCK_FILE_ENV "GAIA2_CLOCK_FILE" /* host-side tests; unset in the image */
#define G2_REAL_CLOCK_ENV "GAIA2_REAL_CLOCK" /* =1 at a process's start: it keeps the real clock */
#define G2_CLOCK_VERSION 1u
#define G2_NS 1000000000LL

struct g2_clock_file {
	char magic[4];            /* "G2CK" */
	uint32_t version;         /* 1 */
	uint64_t seq;             /* odd while the daemon writes */
	int64_t mono_ns;          /* CLOCK_MONOTONIC at the anchor */
	int64_t sim_ns;           /* simulated Unix time at the anchor */
	uint64_t rate_bits;       /* f64: sim ns per monotonic ns, 0 while held */
	int64_t real_minus_mono_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC when written */
	uint32_t agent_uid;       /* processes of this real uid read simulated time */
	uint8_t reserved[12];
};
_Static_assert(sizeof(struct g2_clock_file) == 64, "the clock file is 64 bytes");

/* One consistent reading of the file's fields. */
struct g2_anchor {
	int64_t mono_ns;
	int64_t sim_ns;
	double rate;
	int64_t real_minus_mono_ns;
	uint32_t agent_uid;
};

/* Maps the clock file read-only (the environment's path, else the image's); NULL when it is
 * absent, short or not a version-1 clock file. The descriptor is closed: the mapping stays. */
static inline const struct g2_clock_file *g2_clock_map(void)
{
	const char *path = getenv(G2_CLOCK_FILE_ENV);
	if (!path || !*path) path = G2_CLOCK_FILE;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) return NULL;
	/* the size by lseek: fstat may be the preload's own (and a short file would fault) */
	off_t size = lseek(fd, 0, SEEK_END);
	void *p = size >= (off_t)sizeof(struct g2_clock_file)
		? mmap(NULL, sizeof(struct g2_clock_file), PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	close(fd);
	if (p == MAP_FAILED) return NULL;
	const struct g2_clock_file *f = p;
	if (memcmp(f->magic, "G2CK", 4) != 0 || f->version != G2_CLOCK_VERSION) {
		munmap(p, sizeof(struct g2_clock_file));
		return NULL;
	}
	return f;
}

static inline void g2_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Reads the fields under the seqlock: retried while a write is under way or happened meanwhile.
 * A writer that died mid-write (seq odd for good) gives up after a bounded number of tries. */
static inline void g2_clock_read(const struct g2_clock_file *f, struct g2_anchor *a)
{
	for (int tries = 0;; tries++) {
		uint64_t s1 = __atomic_load_n(&f->seq, __ATOMIC_ACQUIRE);
		if ((s1 & 1) && tries < 100000) {
			g2_cpu_relax();
			continue;
		}
		a->mono_ns = __atomic_load_n(&f->mono_ns, __ATOMIC_RELAXED);
		a->sim_ns = __atomic_load_n(&f->sim_ns, __ATOMIC_RELAXED);
		uint64_t bits = __atomic_load_n(&f->rate_bits, __ATOMIC_RELAXED);
		memcpy(&a->rate, &bits, sizeof bits);
		a->real_minus_mono_ns = __atomic_load_n(&f->real_minus_mono_ns, __ATOMIC_RELAXED);
		a->agent_uid = __atomic_load_n(&f->agent_uid, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&f->seq, __ATOMIC_RELAXED) == s1 || tries >= 100000) return;
	}
}

/* Simulated Unix time in ns at a CLOCK_MONOTONIC reading: sim + (mono - anchor) x rate, rounded
 * as the daemon rounds it (Math.round: halves up). */
static inline int64_t g2_sim_at(const struct g2_anchor *a, int64_t mono)
{
	if (a->rate == 0) return a->sim_ns;
	if (a->rate == 1.0) return a->sim_ns + (mono - a->mono_ns);
	double d = (double)(mono - a->mono_ns) * a->rate;
	int64_t t = (int64_t)d;
	double frac = d - (double)t;
	if (frac >= 0.5) t++;
	else if (frac < -0.5) t--;
	return a->sim_ns + t;
}

static inline int64_t g2_ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * G2_NS + ts->tv_nsec;
}

static inline struct timespec g2_ns_ts(int64_t ns)
{
	struct timespec ts;
	ts.tv_sec = ns / G2_NS;
	ts.tv_nsec = ns % G2_NS;
	if (ts.tv_nsec < 0) {
		ts.tv_sec--;
		ts.tv_nsec += G2_NS;
	}
	return ts;
}

/* Clock ids that read wall-clock time (the ones faked): REALTIME, REALTIME_COARSE,
 * REALTIME_ALARM and TAI (the real TAI offset is kept on top). */
static inline int g2_is_realtime(clockid_t id)
{
	return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE || id == CLOCK_REALTIME_ALARM || id == CLOCK_TAI;
}

/* GAIA2_REAL_CLOCK=1 in the environment: this process keeps the real clock. */
static inline int g2_real_clock_wanted(void)
{
	const char *v = getenv(G2_REAL_CLOCK_ENV);
	return v && strcmp(v, "1") == 0;
}

#endif
