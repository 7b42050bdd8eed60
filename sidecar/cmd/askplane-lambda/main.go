// Command askplane-lambda is the sidecar as a Lambda-compatible function
// (the provided.al2023 custom runtime; Netlify's Go functions run the
// same way): it serves the one handler the sidecar library builds
// (/v1/ask, /mcp, /review/, /health, /ready) from API Gateway v2 or
// Function URL events, and from the REST-API shape Netlify's Go functions
// get (their /.netlify/functions/<name> prefix taken off the path). The platform buffers responses, so an answer's
// NDJSON arrives whole; every site's deadlines are capped below the
// platform's so an answer always ends with its own terminal event.
//
// Configuration, from the environment:
//
//	ASKPLANE_CONFIG        the config file (default askplane.json beside the binary)
//	ASKPLANE_CONFIG_JSON   or the config itself, inline (not both: see sidecar.LoadEnv)
//	ASKPLANE_MAX_REQUEST_TIME
//	                       the platform's deadline less a margin (default 50s,
//	                       under Netlify's 60 s for synchronous functions)
//
// Sessions come from PostgreSQL (sessions or sessionsEnv in the config); a
// config that names SQLite, or none, gets memory: with a warning, since a
// function's file system is read-only and its instances come and go.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/askplane/askplane/internal/lambdahttp"
	"github.com/askplane/askplane/internal/sidecar"
	"github.com/aws/aws-lambda-go/lambda"
)

// defaultMaxRequestTime is under Netlify's 60 s limit on a synchronous
// function, with room for the response to leave.
const defaultMaxRequestTime = 50 * time.Second

func main() {
	logger := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	srv, err := build(context.Background(), os.LookupEnv, logger)
	if err != nil {
		logger.Error("askplane-lambda: " + err.Error())
		os.Exit(1)
	}
	lambda.Start(lambdahttp.AnyHandler(srv))
}

// build reads the config the environment names and provisions the
// sidecar with the platform's deadline.
func build(ctx context.Context, env func(string) (string, bool), logger *slog.Logger) (*sidecar.Server, error) {
	cfg, err := loadConfig(env)
	if err != nil {
		return nil, err
	}
	if cfg.SessionsEnv == "" && (cfg.Sessions == "" || strings.HasPrefix(cfg.Sessions, "sqlite:")) {
		logger.Warn("askplane-lambda: sessions are kept in memory, per instance, and lost when it stops; name a PostgreSQL database in sessionsEnv to keep them")
		cfg.Sessions = "memory:"
	}
	limit := defaultMaxRequestTime
	if v, ok := env("ASKPLANE_MAX_REQUEST_TIME"); ok && v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("ASKPLANE_MAX_REQUEST_TIME must be a duration such as 50s")
		}
		limit = d
	}
	return sidecar.New(ctx, cfg, sidecar.Options{Env: env, Logger: logger, MaxRequestTime: limit})
}

// loadConfig reads the config as every entry point does
// (sidecar.LoadEnv), with askplane.json beside the binary as the
// function's default.
func loadConfig(env func(string) (string, bool)) (*sidecar.Config, error) {
	fallback := ""
	if exe, err := os.Executable(); err == nil {
		fallback = filepath.Join(filepath.Dir(exe), "askplane.json")
	}
	return sidecar.LoadEnv(env, "", fallback)
}
