// Shim for ncursesw: turns on the wide-character API before the header is read, and wraps
// the macros and variadic functions Swift cannot import as small inline functions.
#ifndef STRATUS_CNCURSES_SHIM_H
#define STRATUS_CNCURSES_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <ncurses.h>

// MARK: Attributes (bit macros Swift cannot see)

static inline attr_t stratus_attr_normal(void) { return A_NORMAL; }
static inline attr_t stratus_attr_bold(void) { return A_BOLD; }
static inline attr_t stratus_attr_dim(void) { return A_DIM; }
static inline attr_t stratus_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t stratus_attr_reverse(void) { return A_REVERSE; }
static inline attr_t stratus_attr_italic(void) { return A_ITALIC; }

// MARK: Key codes (function-like macros)

static inline int stratus_key_code_yes(void) { return KEY_CODE_YES; }
static inline int stratus_key_f(int n) { return KEY_F(n); }

// MARK: Screen

/// Starts curses without exiting the process on failure (initscr would print and exit).
static inline SCREEN *stratus_newterm(void) { return newterm(NULL, stdout, stdin); }

static inline int stratus_screen_width(void) { int y, x; getmaxyx(stdscr, y, x); (void)y; return x; }
static inline int stratus_screen_height(void) { int y, x; getmaxyx(stdscr, y, x); (void)x; return y; }
static inline int stratus_colors(void) { return COLORS; }
static inline int stratus_color_pairs(void) { return COLOR_PAIRS; }
static inline int stratus_color_pair_attr(int n) { return (int)COLOR_PAIR(n); }
static inline void stratus_keypad_stdscr(int on) { keypad(stdscr, on ? TRUE : FALSE); }
static inline void stratus_intrflush_stdscr(int on) { intrflush(stdscr, on ? TRUE : FALSE); }
static inline void stratus_nodelay_stdscr(int on) { nodelay(stdscr, on ? TRUE : FALSE); }
static inline void stratus_leaveok_stdscr(int on) { leaveok(stdscr, on ? TRUE : FALSE); }
static inline void stratus_clearok_curscr(void) { clearok(curscr, TRUE); }

/// Reports clicks and the wheel (on) or nothing of the mouse (off).
static inline void stratus_set_mouse(int on) {
    mousemask(on ? (BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED) : 0, NULL);
    mouseinterval(0);
}

/// The mouse event just read (after KEY_MOUSE): 1 a left press, 4 wheel up, 5 wheel down,
/// 0 anything else; the cell in *x, *y.
static inline int stratus_read_mouse(int *x, int *y) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    *x = event.x;
    *y = event.y;
    if (event.bstate & BUTTON4_PRESSED) return 4;
    if (event.bstate & BUTTON5_PRESSED) return 5;
    if (event.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) return 1;
    return 0;
}

/// Reads one input: returns OK (a character in *out), KEY_CODE_YES (a key code in *out) or ERR.
static inline int stratus_get_wch(unsigned int *out) {
    wint_t value = 0;
    int rc = wget_wch(stdscr, &value);
    *out = (unsigned int)value;
    return rc;
}

/// Writes one cell: a spacing character plus up to CCHARW_MAX - 1 combining characters,
/// with an extended colour pair (passed through setcchar's opts so pairs above 255 work).
static inline int stratus_put_cell(int y, int x, const wchar_t *text, attr_t attrs, int pair) {
    cchar_t cell;
    memset(&cell, 0, sizeof cell);
    int extended = pair;
    if (setcchar(&cell, text, attrs, 0, &extended) == ERR) {
        return ERR;
    }
    return mvadd_wch(y, x, &cell);
}

// MARK: Job control

/// Stops the process as the terminal's Ctrl-Z would (SIGTSTP, default action, unblocked in
/// this thread); returns once the shell continues it (`fg`, SIGCONT).
static inline void stratus_stop_self(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    signal(SIGTSTP, SIG_DFL);
    raise(SIGTSTP);
}

// MARK: Width and locale

/// glibc declares wcwidth only under _XOPEN_SOURCE, which the importer may not see.
extern int wcwidth(wchar_t c);

/// Columns ncurses (through the C library) believes a character takes: -1, 0, 1 or 2.
static inline int stratus_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }


/// True when the current LC_CTYPE uses UTF-8.
static inline int stratus_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

// MARK: Raw output and signals

/// Writes bytes straight to the terminal (async-signal safe).
static inline void stratus_write_stdout(const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(STDOUT_FILENO, text, length);
        if (written <= 0) { return; }
        text += written;
        length -= (size_t)written;
    }
}

static inline void stratus_set_bracketed_paste(int on) {
    stratus_write_stdout(on ? "\033[?2004h" : "\033[?2004l");
}

// Termination signals are only noted here: the handler stores the signal and writes a byte to
// the backend's self-pipe, and the event loop, woken from poll(), tears the screen down
// (endwin is not async-signal safe) and the process exits with 128 + signal.

/// The first termination signal caught since the handlers were installed (0: none).
static volatile sig_atomic_t stratus_caught_signal = 0;
/// The write end of the pipe the loop polls (-1: none).
static volatile sig_atomic_t stratus_signal_fd = -1;

static const int stratus_termination_signals[3] = { SIGINT, SIGTERM, SIGHUP };
/// What each termination signal did before the handlers were installed (a function's static:
/// Swift's importer emits no storage for a header's static array of structs).
static inline struct sigaction *stratus_previous_actions(void) {
    static struct sigaction saved[3];
    return saved;
}
static int stratus_handlers_installed = 0;

static void stratus_note_signal(int sig) {
    int saved_errno = errno;
    if (stratus_caught_signal == 0) {
        stratus_caught_signal = sig;
    }
    int fd = stratus_signal_fd;
    if (fd >= 0) {
        char byte = 1;
        (void)write(fd, &byte, 1);
    }
    // The same signal again takes its default action at once: a way out if the loop is stuck.
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(sig, &fallback, NULL);
    errno = saved_errno;
}

/// Catches SIGINT, SIGTERM and SIGHUP (unless the parent set them to be ignored), noting the
/// signal and writing a byte to `wakeup_fd`; unblocks them and SIGWINCH in this thread, since
/// a parent may have left them blocked (and a blocked SIGTERM or SIGWINCH never arrives).
static inline void stratus_install_signal_handlers(int wakeup_fd) {
    stratus_caught_signal = 0;
    stratus_signal_fd = wakeup_fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = stratus_note_signal;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < 3; i++) {
        sigaction(stratus_termination_signals[i], NULL, &stratus_previous_actions()[i]);
        if (stratus_previous_actions()[i].sa_handler != SIG_IGN) {
            sigaction(stratus_termination_signals[i], &action, NULL);
        }
    }
    stratus_handlers_installed = 1;
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, SIGINT);
    sigaddset(&unblock, SIGTERM);
    sigaddset(&unblock, SIGHUP);
    sigaddset(&unblock, SIGWINCH);
    pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
}

/// The signal caught since the handlers were installed, or 0.
static inline int stratus_pending_signal(void) { return stratus_caught_signal; }

/// Puts back what the termination signals did before, once the terminal is restored.
static inline void stratus_remove_signal_handlers(void) {
    if (!stratus_handlers_installed) { return; }
    stratus_signal_fd = -1;
    for (int i = 0; i < 3; i++) {
        sigaction(stratus_termination_signals[i], &stratus_previous_actions()[i], NULL);
    }
    stratus_handlers_installed = 0;
}

#endif
