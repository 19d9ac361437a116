// Command tiny-gguf writes a small valid GGUF file (for the bundle test):
//
//	go run ./build/package/cmd/tiny-gguf FILE
package main

import (
	"fmt"
	"os"

	"hermes/backend/llm/llmtest"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tiny-gguf FILE")
		os.Exit(2)
	}
	if err := llmtest.WriteGGUF(os.Args[1], 4096); err != nil {
		fmt.Fprintln(os.Stderr, "tiny-gguf:", err)
		os.Exit(1)
	}
}
