/* main.c - the stern engine binary: the protocol loop on stdin/stdout. */
#include "uci.h"

#include <signal.h>
#include <unistd.h>

int main(void)
{
    signal(SIGPIPE, SIG_IGN); /* a vanished GUI must not kill us mid-line */
    return uci_loop(STDIN_FILENO, stdout);
}
