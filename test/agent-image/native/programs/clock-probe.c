/* Prints what the C library's wall-clock reads say, one line of JSON: clock_gettime (REALTIME and
 * REALTIME_COARSE), gettimeofday, time, as Unix seconds, and the day of clock_gettime's answer.
 * `nodump` first calls prctl(PR_SET_DUMPABLE, 0), as Codex's start-up hardening does, and reports
 * what the process is afterwards. Built static and dynamic by the tests (clock-readers.test.ts). */
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <time.h>

int main(int argc, char **argv)
{
	int dumpable = -1;
	if (argc > 1 && strcmp(argv[1], "nodump") == 0) {
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return 3;
		dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	}
	struct timespec rt, coarse;
	struct timeval tv;
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_REALTIME_COARSE, &coarse);
	gettimeofday(&tv, NULL);
	time_t t = time(NULL);
	char day[16];
	strftime(day, sizeof day, "%Y-%m-%d", gmtime(&rt.tv_sec));
	printf("{\"day\":\"%s\",\"realtime\":%lld,\"coarse\":%lld,\"gettimeofday\":%lld,\"time\":%lld,\"dumpable\":%d}\n", day,
	       (long long)rt.tv_sec, (long long)coarse.tv_sec, (long long)tv.tv_sec, (long long)t, dumpable);
	return 0;
}
