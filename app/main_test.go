package app

import (
	"os"
	"testing"

	"hermes/backend/cage"
)

// TestMain lets this test binary be the parser cage's child (attached PDFs are
// read by this executable run with cage.Command).
func TestMain(m *testing.M) {
	cage.RunIfChild()
	os.Exit(m.Run())
}
