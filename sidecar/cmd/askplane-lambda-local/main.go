// Command askplane-lambda-local runs a Lambda function binary (the
// askplane-lambda bootstrap) on this machine as Netlify or API Gateway
// would: it serves the Lambda Runtime API to the function and plain HTTP
// to you, each request one API Gateway v2 event, each response buffered
// whole.
//
//	GOOS=linux CGO_ENABLED=0 go build -o bootstrap ./sidecar/cmd/askplane-lambda
//	ASKPLANE_CONFIG=askplane.json go run ./sidecar/cmd/askplane-lambda-local ./bootstrap
//	curl http://127.0.0.1:9000/health
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/askplane/askplane/internal/lambdaemu"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9000", "serve HTTP on `host:port`")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: askplane-lambda-local [--addr HOST:PORT] BOOTSTRAP [ARG…]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*addr, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "askplane-lambda-local:", err)
		os.Exit(1)
	}
}

func run(addr string, bootstrap []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rt := lambdaemu.NewRuntime()

	apiLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	api := &http.Server{Handler: rt.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go api.Serve(apiLn)
	defer api.Close()

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	front := &http.Server{Handler: rt.HTTP(), ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 16 << 10}
	go front.Serve(ln)
	defer front.Close()

	fn := exec.Command(bootstrap[0], bootstrap[1:]...)
	fn.Env = append(os.Environ(), "AWS_LAMBDA_RUNTIME_API="+apiLn.Addr().String(), "AWS_LAMBDA_FUNCTION_NAME=askplane", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE=1024")
	fn.Stdout, fn.Stderr = os.Stderr, os.Stderr
	if err := fn.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- fn.Wait() }()
	fmt.Fprintf(os.Stderr, "askplane-lambda-local: %s on http://%s/ (Ctrl-C to stop)\n", bootstrap[0], ln.Addr())

	select {
	case <-ctx.Done():
		fn.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			fn.Process.Kill()
		}
		return nil
	case msg := <-rt.InitErrors():
		fn.Process.Kill()
		return fmt.Errorf("the function failed to start: %s", msg)
	case err := <-exited:
		if err == nil {
			err = errors.New("exited")
		}
		return fmt.Errorf("the function stopped: %w", err)
	}
}
