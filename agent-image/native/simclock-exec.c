/* simclock-exec PROGRAM [ARGS...]: runs a program on the simulated clock even when it is statically
 * linked (no C library of the system, so the preload library never loads; Codex's musl build is
 * one). docs/contract.md, "The agent's clock".
 *
 *   1. fork; the child installs a seccomp filter that sends the wall-clock system calls
 *      (clock_gettime with a REALTIME-family clock, gettimeofday, time) to this helper as user
 *      notifications, and answers prctl(PR_SET_DUMPABLE, 0) with success without doing it (a
 *      program that made itself non-dumpable could not have the answers written into it);
 *      it passes the filter's listener to the parent, asks to be traced, and execs the program;
 *   2. at the exec stop the parent removes AT_SYSINFO_EHDR from the new image's auxiliary vector,
 *      so its C library finds no vDSO and makes real system calls for the time, then detaches;
 *   3. the parent answers each notification from the clock file (writing the result into the
 *      caller with process_vm_writev, or through /proc/PID/mem where a seccomp profile refuses
 *      that call), forwards SIGTERM, SIGINT and SIGHUP to the child, and exits as the child did.
 * Where the file is absent or invalid, or this process does not read the simulated clock (not the
 * file's agent_uid, or GAIA2_REAL_CLOCK=1), the program is exec'd as it is. Where seccomp or
 * ptrace is refused, it runs anyway, after one warning line on stderr.
 * The program runs with no_new_privs (a seccomp filter needs it): set-uid programs it starts do
 * not gain privileges. Its children inherit the filter, not the vDSO removal: a dynamic child
 * reads the clock through the preload library, a static one only when started by this helper. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include "simclock.h"

#if defined(__x86_64__)
#define G2_ARCH AUDIT_ARCH_X86_64
#define G2_HAVE_SYS_TIME 1
#elif defined(__aarch64__)
#include <elf.h> /* NT_PRSTATUS */
#define G2_ARCH AUDIT_ARCH_AARCH64
#define G2_HAVE_SYS_TIME 0 /* aarch64 has no time(2) */
#else
#define G2_ARCH 0 /* no filter for this architecture: the program runs on the real clock */
#endif

#ifndef SECCOMP_IOCTL_NOTIF_ID_VALID
#define SECCOMP_IOCTL_NOTIF_ID_VALID SECCOMP_IOW(2, __u64)
#endif
#ifndef AT_SYSINFO_EHDR
#define AT_SYSINFO_EHDR 33
#endif
#define G2_AT_IGNORE 1

static const char *prog_name = "simclock-exec";
static const struct g2_clock_file *clk;
static int64_t tai_offset;
static struct timezone kernel_tz;

static void warn_once(const char *what, int err)
{
	fprintf(stderr, "%s: warning: %s (%s): the program runs on the real clock\n", prog_name, what, strerror(err));
}

/* The real clocks, by system call: this helper's own clock_gettime may be the preload's. */
static int64_t raw_clock(clockid_t id)
{
	struct timespec ts;
	syscall(SYS_clock_gettime, id, &ts);
	return g2_ts_ns(&ts);
}

static int64_t sim_now(void)
{
	struct g2_anchor a;
	g2_clock_read(clk, &a);
	return g2_sim_at(&a, raw_clock(CLOCK_MONOTONIC));
}

/* ------------------------------------------------------------------ the child's side */

#if G2_ARCH
static int install_filter(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, G2_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clock_gettime, 5, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_gettimeofday, 3, 0),
#if G2_HAVE_SYS_TIME
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_time, 2, 0),
#else
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffff, 2, 0), /* (no time(2): keeps the offsets) */
#endif
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_prctl, 9, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* gettimeofday, time */
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		/* clock_gettime: the clock id (args[0], an int: its low word) */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CLOCK_REALTIME, 4, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CLOCK_REALTIME_COARSE, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CLOCK_REALTIME_ALARM, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CLOCK_TAI, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		/* prctl(PR_SET_DUMPABLE, 0): "done", without doing it */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_DUMPABLE, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof f / sizeof f[0], .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}
#endif

/* What the child tells the parent before it execs (with the listener fd, when there is one). */
struct child_report {
	int listener_err; /* 0: the listener comes along */
	int trace_err;    /* 0: traced, the parent gets the exec stop */
};

static void send_report(int sock, const struct child_report *r, int fd)
{
	struct iovec iov = { .iov_base = (void *)r, .iov_len = sizeof *r };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	if (fd >= 0) {
		memset(&u, 0, sizeof u);
		msg.msg_control = u.buf;
		msg.msg_controllen = sizeof u.buf;
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof fd);
	}
	while (sendmsg(sock, &msg, 0) < 0 && errno == EINTR) {}
}

static int recv_report(int sock, struct child_report *r)
{
	struct iovec iov = { .iov_base = r, .iov_len = sizeof *r };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf };
	ssize_t n;
	while ((n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {}
	if (n != (ssize_t)sizeof *r) return -2; /* the child died before reporting */
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	int fd = -1;
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) memcpy(&fd, CMSG_DATA(c), sizeof fd);
	return fd;
}

static void run_child(int sock, pid_t helper, const sigset_t *old_mask, char **argv)
{
	struct child_report r = { .listener_err = ENOSYS, .trace_err = ENOSYS };
	int listener = -1;
	/* without its helper the program could not read the wall clock at all (no vDSO, and the
	 * filter's calls would fail): it ends with it */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != helper) _exit(127);
#if G2_ARCH
	listener = install_filter();
	r.listener_err = listener >= 0 ? 0 : errno;
	if (listener >= 0) r.trace_err = ptrace(PTRACE_TRACEME, 0, 0, 0) == 0 ? 0 : errno;
#endif
	send_report(sock, &r, listener);
	if (listener >= 0) close(listener);
	close(sock);
	sigprocmask(SIG_SETMASK, old_mask, NULL);
	execvp(argv[0], argv);
	fprintf(stderr, "%s: %s: %s\n", prog_name, argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* ------------------------------------------------------------------ the exec stop */

#if G2_ARCH
static long stack_pointer(pid_t pid)
{
#if defined(__x86_64__)
	struct user_regs_struct regs;
	if (ptrace(PTRACE_GETREGS, pid, 0, &regs) != 0) return 0;
	return (long)regs.rsp;
#else
	struct user_regs_struct regs;
	struct iovec iov = { .iov_base = &regs, .iov_len = sizeof regs };
	if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, &iov) != 0) return 0;
	return (long)regs.sp;
#endif
}

/* At the exec stop the new image's stack holds argc, argv, NULL, envp, NULL, then the auxiliary
 * vector; AT_SYSINFO_EHDR there becomes AT_IGNORE, so the program finds no vDSO. */
static int strip_vdso(pid_t pid)
{
	long sp = stack_pointer(pid);
	if (!sp) return errno ? errno : EINVAL;
	errno = 0;
	long argc = ptrace(PTRACE_PEEKDATA, pid, sp, 0);
	if (errno) return errno;
	long p = sp + (long)sizeof(long) * (argc + 2); /* past argc, argv[], NULL */
	for (int i = 0; i < 100000; i++, p += sizeof(long)) { /* envp[] up to its NULL */
		long v = ptrace(PTRACE_PEEKDATA, pid, p, 0);
		if (errno) return errno;
		if (v == 0) break;
	}
	for (p += sizeof(long);; p += 2 * sizeof(long)) {
		long type = ptrace(PTRACE_PEEKDATA, pid, p, 0);
		if (errno) return errno;
		if (type == 0) return 0; /* AT_NULL: no vDSO offered */
		if (type == AT_SYSINFO_EHDR) return ptrace(PTRACE_POKEDATA, pid, p, G2_AT_IGNORE) == 0 ? 0 : errno;
	}
}

/* Waits for the child's exec stop (passing on any signal it gets before), strips the vDSO and
 * detaches. Returns 0, or -1 when the child ended before its exec (status in *status). */
static int exec_stop(pid_t child, int *status)
{
	for (;;) {
		if (waitpid(child, status, __WALL) < 0) {
			if (errno == EINTR) continue;
			return -1;
		}
		if (!WIFSTOPPED(*status)) return -1;
		int sig = WSTOPSIG(*status);
		if (sig == SIGTRAP) break;
		ptrace(PTRACE_CONT, child, 0, (void *)(long)sig);
	}
	int err = strip_vdso(child);
	if (err) warn_once("cannot remove the vDSO from the program", err);
	ptrace(PTRACE_DETACH, child, 0, 0);
	return 0;
}
#endif

/* ------------------------------------------------------------------ the answers */

/* process_vm_writev refused by the container's own seccomp profile (Docker 20.10's allows it
 * only with CAP_SYS_PTRACE): from then on the caller's /proc/PID/mem, same permission check. */
static int vm_writev_refused;

static int write_to(pid_t pid, uint64_t addr, const void *data, size_t len)
{
	if (!vm_writev_refused) {
		struct iovec local = { .iov_base = (void *)data, .iov_len = len };
		struct iovec remote = { .iov_base = (void *)(uintptr_t)addr, .iov_len = len };
		if (process_vm_writev(pid, &local, 1, &remote, 1, 0) == (ssize_t)len) return 0;
		if (errno != EPERM && errno != ENOSYS) return EFAULT;
		vm_writev_refused = 1;
	}
	char path[32];
	snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) return EFAULT;
	ssize_t n = pwrite(fd, data, len, (off_t)addr);
	close(fd);
	return n == (ssize_t)len ? 0 : EFAULT;
}

/* The answer to one notification: the result written into the caller, its return value. */
static void answer(int listener, const struct seccomp_notif *req, struct seccomp_notif_resp *resp)
{
	resp->id = req->id;
	resp->val = 0;
	resp->error = 0;
	resp->flags = 0;
	/* the caller may have died and its pid be reused: write into it only while it waits */
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) != 0) {
		resp->error = -ENOENT;
		return;
	}
	pid_t pid = (pid_t)req->pid;
	int64_t now = sim_now();
	int err = 0;
	if (req->data.nr == __NR_clock_gettime) {
		int id = (int)req->data.args[0];
		struct timespec ts = g2_ns_ts(now + (id == CLOCK_TAI ? tai_offset : 0));
		err = write_to(pid, req->data.args[1], &ts, sizeof ts);
	} else if (req->data.nr == __NR_gettimeofday) {
		struct timespec ts = g2_ns_ts(now);
		struct timeval tv = { .tv_sec = ts.tv_sec, .tv_usec = ts.tv_nsec / 1000 };
		if (req->data.args[0]) err = write_to(pid, req->data.args[0], &tv, sizeof tv);
		if (!err && req->data.args[1]) err = write_to(pid, req->data.args[1], &kernel_tz, sizeof kernel_tz);
	}
#if G2_HAVE_SYS_TIME
	else if (req->data.nr == __NR_time) {
		int64_t t = g2_ns_ts(now).tv_sec;
		if (req->data.args[0]) err = write_to(pid, req->data.args[0], &t, sizeof t);
		resp->val = t;
	}
#endif
	else {
		err = ENOSYS;
	}
	if (err) {
		resp->error = -err;
		resp->val = 0;
	}
}

/* Serves the notifications until the child ends; forwards the signals to it. Returns its status. */
static int serve(int listener, pid_t child, int sigfd)
{
	struct seccomp_notif_sizes sizes = { 0 };
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	if (listener >= 0) {
		if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0) {
			sizes.seccomp_notif = sizeof *req;
			sizes.seccomp_notif_resp = sizeof *resp;
		}
		req = calloc(1, sizes.seccomp_notif > sizeof *req ? sizes.seccomp_notif : sizeof *req);
		resp = calloc(1, sizes.seccomp_notif_resp > sizeof *resp ? sizes.seccomp_notif_resp : sizeof *resp);
	}
	for (;;) {
		struct pollfd fds[2] = { { .fd = sigfd, .events = POLLIN }, { .fd = listener, .events = POLLIN } };
		int n = poll(fds, listener >= 0 ? 2 : 1, -1);
		if (n < 0) {
			if (errno == EINTR) continue;
			break;
		}
		if (fds[0].revents & POLLIN) {
			struct signalfd_siginfo si;
			while (read(sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
				if (si.ssi_signo != SIGCHLD) {
					kill(child, (int)si.ssi_signo);
					continue;
				}
				int status;
				pid_t w;
				while ((w = waitpid(child, &status, WNOHANG)) < 0 && errno == EINTR) {}
				if (w == child) return status;
			}
		}
		if (listener >= 0 && (fds[1].revents & POLLIN)) {
			memset(req, 0, sizes.seccomp_notif);
			if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req) != 0) continue; /* the caller went away */
			memset(resp, 0, sizes.seccomp_notif_resp);
			answer(listener, req, resp);
			ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp); /* ENOENT: it went away meanwhile */
		} else if (listener >= 0 && (fds[1].revents & (POLLHUP | POLLERR))) {
			/* nobody uses the filter any more: wait for the child alone */
			close(listener);
			listener = -1;
		}
	}
	int status;
	while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
	return status;
}

/* Ends this process as the child ended: its exit code, or the same signal. */
static void exit_like(int status)
{
	if (WIFEXITED(status)) exit(WEXITSTATUS(status));
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		signal(sig, SIG_DFL);
		sigset_t s;
		sigemptyset(&s);
		sigaddset(&s, sig);
		sigprocmask(SIG_UNBLOCK, &s, NULL);
		raise(sig);
		exit(128 + sig);
	}
	exit(1);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s PROGRAM [ARGS...]\n", prog_name);
		return 2;
	}
	char **cmd = argv + 1;
	clk = g2_real_clock_wanted() ? NULL : g2_clock_map();
	if (clk) {
		struct g2_anchor a;
		g2_clock_read(clk, &a);
		if (getuid() != a.agent_uid) clk = NULL;
	}
	if (!clk || !G2_ARCH) {
		execvp(cmd[0], cmd);
		fprintf(stderr, "%s: %s: %s\n", prog_name, cmd[0], strerror(errno));
		return errno == ENOENT ? 127 : 126;
	}
	tai_offset = (raw_clock(CLOCK_TAI) - raw_clock(CLOCK_REALTIME) + G2_NS / 2) / G2_NS * G2_NS;
	{
		struct timeval tv;
		syscall(SYS_gettimeofday, &tv, &kernel_tz);
	}

	/* the signals this helper handles go through a signalfd; the child gets the old mask back */
	sigset_t handled, old;
	sigemptyset(&handled);
	sigaddset(&handled, SIGCHLD);
	sigaddset(&handled, SIGTERM);
	sigaddset(&handled, SIGINT);
	sigaddset(&handled, SIGHUP);
	sigprocmask(SIG_BLOCK, &handled, &old);
	int sigfd = signalfd(-1, &handled, SFD_CLOEXEC | SFD_NONBLOCK);
	int sv[2];
	if (sigfd < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		warn_once("cannot set up", errno);
		sigprocmask(SIG_SETMASK, &old, NULL);
		execvp(cmd[0], cmd);
		return 127;
	}
	pid_t helper = getpid();
	pid_t child = fork();
	if (child < 0) {
		warn_once("cannot fork", errno);
		sigprocmask(SIG_SETMASK, &old, NULL);
		execvp(cmd[0], cmd);
		return 127;
	}
	if (child == 0) {
		close(sv[0]);
		close(sigfd);
		run_child(sv[1], helper, &old, cmd);
	}
	close(sv[1]);
	struct child_report r;
	int listener = recv_report(sv[0], &r);
	close(sv[0]);
	int status = 0;
	if (listener != -2) {
		if (r.listener_err) warn_once("seccomp user notification refused", r.listener_err);
		else if (r.trace_err) warn_once("ptrace refused, the vDSO stays", r.trace_err);
#if G2_ARCH
		if (!r.listener_err && !r.trace_err && exec_stop(child, &status) != 0) exit_like(status);
#endif
	}
	exit_like(serve(listener >= 0 ? listener : -1, child, sigfd));
}
