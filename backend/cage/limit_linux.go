package cage

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// limit caps this process: its address space at what it maps now plus memory
// (so a runtime that reserved address space at start still has memory bytes to
// grow by), and its CPU time at cpu seconds, after which the kernel kills it.
func limit(memory, cpu int64) error {
	now, err := mapped()
	if err != nil {
		return err
	}
	as := uint64(now + memory)
	if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: as, Max: as}); err != nil {
		return fmt.Errorf("limit memory: %w", err)
	}
	c := uint64(cpu)
	if err := unix.Setrlimit(unix.RLIMIT_CPU, &unix.Rlimit{Cur: c, Max: c}); err != nil {
		return fmt.Errorf("limit cpu time: %w", err)
	}
	if err := unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{}); err != nil {
		return fmt.Errorf("limit core dumps: %w", err)
	}
	return nil
}

// mapped is this process's address space in bytes (/proc/self/statm's first field).
func mapped() (int64, error) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, fmt.Errorf("read address space: %w", err)
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, fmt.Errorf("read address space: empty statm")
	}
	pages, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("read address space: %w", err)
	}
	return pages * int64(os.Getpagesize()), nil
}
