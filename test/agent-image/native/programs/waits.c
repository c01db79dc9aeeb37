/* One wait for an absolute deadline MS milliseconds ahead on the wall clock (the simulated one
 * under the preload library), then one line of JSON: the call's result, the wall clock before and
 * after (ns), the deadline, and the CPU time the process used (a wait that spins shows up there).
 *   waits MODE MS     MODE: sleep (clock_nanosleep TIMER_ABSTIME), cond (pthread_cond_timedwait,
 *                     waited again on spurious wake-ups, as callers do), cond-mono (a condvar on
 *                     CLOCK_MONOTONIC, its deadline from that clock), sem (sem_timedwait),
 *                     mutex (pthread_mutex_timedlock on a mutex another thread holds)
 * It prints "waiting" on stderr once the wait has begun. Built by the tests (clock-readers.test.ts). */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long long ns(const struct timespec *t) { return (long long)t->tv_sec * 1000000000LL + t->tv_nsec; }

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static void *hold_forever(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&held);
	for (;;) pause();
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3) return 2;
	const char *mode = argv[1];
	long long ms = atoll(argv[2]);
	int mono = strcmp(mode, "cond-mono") == 0;
	struct timespec before, after, deadline;
	clock_gettime(mono ? CLOCK_MONOTONIC : CLOCK_REALTIME, &before);
	long long d = ns(&before) + ms * 1000000LL;
	deadline.tv_sec = d / 1000000000LL;
	deadline.tv_nsec = d % 1000000000LL;
	pthread_t t;
	if (strcmp(mode, "mutex") == 0) {
		pthread_create(&t, NULL, hold_forever, NULL);
		while (pthread_mutex_trylock(&held) == 0) pthread_mutex_unlock(&held); /* until the thread has it */
	}
	fprintf(stderr, "waiting\n");
	int rc = -1, spurious = 0;
	if (strcmp(mode, "sleep") == 0) {
		rc = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &deadline, NULL);
	} else if (strcmp(mode, "cond") == 0 || mono) {
		pthread_condattr_t a;
		pthread_cond_t c;
		pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
		pthread_condattr_init(&a);
		if (mono) pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
		pthread_cond_init(&c, &a);
		pthread_mutex_lock(&m);
		while ((rc = pthread_cond_timedwait(&c, &m, &deadline)) == 0) spurious++;
		pthread_mutex_unlock(&m);
	} else if (strcmp(mode, "sem") == 0) {
		sem_t s;
		sem_init(&s, 0, 0);
		rc = sem_timedwait(&s, &deadline) == 0 ? 0 : errno;
	} else if (strcmp(mode, "mutex") == 0) {
		rc = pthread_mutex_timedlock(&held, &deadline);
	} else {
		return 2;
	}
	clock_gettime(mono ? CLOCK_MONOTONIC : CLOCK_REALTIME, &after);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	long long cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
	printf("{\"rc\":\"%s\",\"before\":%lld,\"after\":%lld,\"deadline\":%lld,\"cpu\":%lld,\"spurious\":%d}\n",
	       rc == 0 ? "0" : rc == ETIMEDOUT ? "ETIMEDOUT" : strerror(rc), ns(&before), ns(&after), d, cpu, spurious);
	fflush(stdout);
	_exit(0);
}
