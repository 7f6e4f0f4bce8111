/*
 * Parallel QEMU boots (see boots.h). Each boot writes its serial port to its own file in a
 * private temporary directory; when QEMU ends, the file is read and removed. A boot passes
 * when the log holds the lines the plan needs and QEMU did not report a failure: exit status
 * 3 (the reference kernel wrote 1 to isa-debug-exit). Linux must reach init and power off
 * (status 0), where _text must be the stub's base and "Kernel code" start at its phys.
 * Under UEFI (plan->uefi) each boot also gets its own ESP and variable store beside its log
 * (esp.h), removed with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tools/stat/boots.h"
#include "tools/stat/lines.h"

#define JOBS_MAX       64
#define POLL_NS	       20000000L /* 20 ms between looks at the running boots */
#define QEMU_EXIT_FAIL	    3	      /* (1 << 1) | 1: the kernel wrote 1 to isa-debug-exit */
#define QEMU_EXIT_POWER_OFF 0	      /* the guest powered the machine off, as Linux's init does */
#define BAR_WIDTH      40
#define LOG_LINE_BYTES (1 << 18)
#define ARGS_FIXED	    34

struct job {
	pid_t pid;
	size_t number;
	time_t started;
	char log[256];
	char esp[256], vars[256]; /* under UEFI */
	char code_drive[4200], vars_drive[300], esp_drive[300];
	bool killed;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* The QEMU words that give the machine its kernel: QEMU's own loader, or UEFI firmware with
 * this boot's ESP. -1 with a message in err when the ESP cannot be made. */
static int kernel_words(const struct boot_plan *plan, struct job *job, const char **argv,
			size_t *n, char *err, size_t err_cap)
{
	if (!plan->uefi) {
		argv[(*n)++] = "-kernel";
		argv[(*n)++] = plan->image;
		argv[(*n)++] = "-append";
		argv[(*n)++] = plan->append;
		if (plan->initrd) {
			argv[(*n)++] = "-initrd";
			argv[(*n)++] = plan->initrd;
		}
		return 0;
	}
	if (esp_make(plan->uefi, job->esp, job->vars, plan->image, plan->initrd, plan->append, err,
		     err_cap))
		return -1;
	snprintf(job->code_drive, sizeof(job->code_drive), "if=pflash,format=raw,readonly=on,file=%s",
		 plan->uefi->code);
	snprintf(job->vars_drive, sizeof(job->vars_drive), "if=pflash,format=raw,file=%s",
		 job->vars);
	snprintf(job->esp_drive, sizeof(job->esp_drive), "file=fat:rw:%s,format=raw", job->esp);
	const char *words[] = {"-drive", job->code_drive, "-drive", job->vars_drive,
			       "-drive", job->esp_drive};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		argv[(*n)++] = words[i];
	return 0;
}

static pid_t start_boot(const struct boot_plan *plan, struct job *job, char *err, size_t err_cap)
{
	char serial[300];
	snprintf(serial, sizeof(serial), "file:%s", job->log);
	const char *argv[ARGS_FIXED + plan->extra_count + 1];
	size_t n = 0;
	const char *fixed[] = {plan->qemu,
			       "-nodefaults",
			       "-accel",
			       "tcg",
			       "-M",
			       plan->uefi ? ESP_MACHINE : "pc",
			       "-cpu",
			       plan->cpu,
			       "-m",
			       plan->memory,
			       "-display",
			       "none",
			       "-monitor",
			       "none",
			       "-no-reboot",
			       "-serial",
			       serial,
			       "-device",
			       "isa-debug-exit,iobase=0xf4,iosize=0x04"};
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		argv[n++] = fixed[i];
	if (kernel_words(plan, job, argv, &n, err, err_cap))
		return -1;
	for (size_t i = 0; i < plan->extra_count; i++)
		argv[n++] = plan->extra[i];
	argv[n] = NULL;

	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		setpgid(0, 0);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* What start_boot made besides the log, gone. */
static void clean_boot(const struct boot_plan *plan, const struct job *job)
{
	unlink(job->log);
	if (plan->uefi)
		esp_remove(job->esp, job->vars);
}

static void progress(size_t done, size_t total, time_t start)
{
	if (!isatty(2))
		return;
	size_t fill = total ? done * BAR_WIDTH / total : BAR_WIDTH;
	double secs = difftime(time(NULL), start);
	fprintf(stderr, "\r[%.*s%*s] %zu/%zu boots", (int)fill,
		"########################################", (int)(BAR_WIDTH - fill), "", done,
		total);
	if (secs > 0)
		fprintf(stderr, ", %.1f/s", (double)done / secs);
	if (done == total)
		fputc('\n', stderr);
	fflush(stderr);
}

/* What one boot's log showed. */
struct log_summary {
	bool has_base, has_report;
	struct base_line base;
	struct linux_report report;
};

/* Hand the log to fn line by line, noting the first base line and the first init report. */
static int read_log(const char *path, boot_line_fn fn, void *ctx, struct log_summary *sum,
		    char *buf)
{
	FILE *f = fopen(path, "r");
	int rc = 0;
	memset(sum, 0, sizeof(*sum));
	if (!f)
		return 0;
	while (rc == 0 && fgets(buf, LOG_LINE_BYTES, f)) {
		if (!sum->has_base && line_parse_base(buf, &sum->base) == 0)
			sum->has_base = true;
		if (!sum->has_report && line_parse_linux(buf, &sum->report) == 0)
			sum->has_report = true;
		rc = fn(ctx, buf);
	}
	fclose(f);
	return rc;
}

static void note_failure(struct boot_outcome *out, const struct job *job, const char *why)
{
	out->failed++;
	if (!out->first_failure[0])
		snprintf(out->first_failure, sizeof(out->first_failure), "boot %zu: %s",
			 job->number, why);
}

/* Why a boot that ran to its end with 'code' fails the plan, or NULL if it passes. */
static const char *judge(const struct boot_plan *plan, const struct log_summary *sum, int code,
			 char *why, size_t cap)
{
	if (code == 127)
		return "QEMU could not be started";
	if (plan->needs_base && !sum->has_base)
		return "no kslide: base= line";
	if (code == QEMU_EXIT_FAIL)
		return "the kernel reported failure";
	if (!plan->needs_report)
		return NULL;
	if (!sum->has_report) {
		/* 0: Linux rebooted (a panic, with panic=-1 and -no-reboot) or powered off */
		snprintf(why, cap,
			 "no kslide-linux: _text= line: Linux did not reach init (QEMU exit status "
			 "%d)",
			 code);
		return why;
	}
	if (code != QEMU_EXIT_POWER_OFF) {
		snprintf(why, cap, "QEMU exit status %d, not Linux's power off", code);
		return why;
	}
	if (plan->needs_base &&
	    (sum->report.text != sum->base.virt || sum->report.code_first != sum->base.phys)) {
		snprintf(why, cap,
			 "Linux runs at _text=0x%llx, Kernel code 0x%llx; the stub chose 0x%llx, "
			 "0x%llx",
			 (unsigned long long)sum->report.text,
			 (unsigned long long)sum->report.code_first,
			 (unsigned long long)sum->base.virt, (unsigned long long)sum->base.phys);
		return why;
	}
	return NULL;
}

/* A failed boot's serial log, copied to the plan's directory: 0, or -1 (errno set). */
static int keep_log(const struct boot_plan *plan, const struct job *job)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/boot-%zu.log", plan->failed_logs, job->number);
	FILE *in = fopen(job->log, "rb"), *out = in ? fopen(path, "wb") : NULL;
	char chunk[4096];
	size_t n;
	int rc = out ? 0 : -1;
	while (out && (n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		if (fwrite(chunk, 1, n, out) != n)
			rc = -1;
	if (in && ferror(in))
		rc = -1;
	if (out && fclose(out))
		rc = -1;
	if (in)
		fclose(in);
	return rc;
}

/* A boot ended with 'status': judge it and pass its lines on. */
static int finish(const struct boot_plan *plan, struct job *job, int status, boot_line_fn fn,
		  void *ctx, struct boot_outcome *out, char *buf)
{
	struct log_summary sum;
	char why[256];
	int rc = read_log(job->log, fn, ctx, &sum, buf);
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	const char *failure = job->killed ? "timed out" : judge(plan, &sum, code, why, sizeof(why));
	if (failure && plan->failed_logs) {
		if (keep_log(plan, job) == 0)
			out->logs_kept++;
		else
			fprintf(stderr, "kslide-stat: %s: cannot keep boot %zu's log: %s\n",
				plan->failed_logs, job->number, strerror(errno));
	}
	clean_boot(plan, job);
	if (failure)
		note_failure(out, job, failure);
	else
		out->passed++;
	job->pid = 0;
	return rc;
}

static void kill_all(const struct boot_plan *plan, struct job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (jobs[i].pid > 0) {
			kill(-jobs[i].pid, SIGKILL);
			kill(jobs[i].pid, SIGKILL);
			waitpid(jobs[i].pid, NULL, 0);
			clean_boot(plan, &jobs[i]);
		}
}

int boots_run(const struct boot_plan *plan, boot_line_fn fn, void *ctx, struct boot_outcome *out,
	      char *error, size_t error_cap)
{
	char dir[] = "/tmp/kslide-stat.XXXXXX";
	size_t jobs_n = plan->jobs < 1 ? 1 : plan->jobs > JOBS_MAX ? JOBS_MAX : plan->jobs;
	struct job jobs[JOBS_MAX];
	char *buf = malloc(LOG_LINE_BYTES);
	memset(out, 0, sizeof(*out));
	memset(jobs, 0, sizeof(jobs));
	if (error_cap)
		error[0] = '\0';
	if (!buf || !mkdtemp(dir)) {
		free(buf);
		return -1;
	}
	struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	time_t start = time(NULL);
	size_t started = 0, done = 0;
	int rc = 0;
	progress(0, plan->boots, start);
	while (done < plan->boots && rc == 0 && !interrupted) {
		for (size_t i = 0; i < jobs_n && started < plan->boots; i++) {
			if (jobs[i].pid)
				continue;
			jobs[i].number = ++started;
			jobs[i].started = time(NULL);
			jobs[i].killed = false;
			snprintf(jobs[i].log, sizeof(jobs[i].log), "%s/boot-%zu.log", dir, started);
			snprintf(jobs[i].esp, sizeof(jobs[i].esp), "%s/boot-%zu.esp", dir, started);
			snprintf(jobs[i].vars, sizeof(jobs[i].vars), "%s/boot-%zu.vars", dir,
				 started);
			jobs[i].pid = start_boot(plan, &jobs[i], error, error_cap);
			if (jobs[i].pid < 0) {
				jobs[i].pid = 0;
				clean_boot(plan, &jobs[i]);
				rc = -1;
				break;
			}
		}
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);
		for (size_t i = 0; pid > 0 && i < jobs_n; i++)
			if (jobs[i].pid == pid) {
				rc = finish(plan, &jobs[i], status, fn, ctx, out, buf);
				progress(++done, plan->boots, start);
			}
		if (pid > 0)
			continue;
		for (size_t i = 0; i < jobs_n; i++)
			if (jobs[i].pid && !jobs[i].killed &&
			    difftime(time(NULL), jobs[i].started) > plan->timeout) {
				kill(-jobs[i].pid, SIGKILL);
				kill(jobs[i].pid, SIGKILL);
				jobs[i].killed = true;
			}
		nanosleep(&(struct timespec){0, POLL_NS}, NULL);
	}
	kill_all(plan, jobs, jobs_n);
	rmdir(dir);
	free(buf);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (interrupted) {
		if (isatty(2))
			fputc('\n', stderr);
		errno = EINTR;
		return -1;
	}
	return rc;
}
