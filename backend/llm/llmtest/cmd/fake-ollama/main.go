// Command fake-ollama runs the llmtest fake Ollama server as a process, for browser and
// desktop tests. It prints FAKE_OLLAMA_URL=http://127.0.0.1:PORT on its first line.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"hermes/backend/llm/llmtest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback)")
	delay := flag.Duration("token-delay", 0, "delay before each streamed word")
	words := flag.Int("extra-words", 40, "words added after the echo")
	flag.Parse()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake-ollama:", err)
		os.Exit(1)
	}
	fake := llmtest.New()
	fake.Chat = llmtest.Echo(*words, *delay)
	fmt.Printf("FAKE_OLLAMA_URL=http://%s\n", ln.Addr())
	srv := &http.Server{Handler: fake}
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
		<-sig
		fake.Close()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "fake-ollama:", err)
		os.Exit(1)
	}
}
