package sidecar

import (
	"errors"
	"fmt"
)

// The environment variables every entry point reads its config from.
const (
	// EnvConfigFile names the config file.
	EnvConfigFile = "ASKPLANE_CONFIG"
	// EnvConfigJSON holds the config itself (as a container or a function
	// is configured).
	EnvConfigJSON = "ASKPLANE_CONFIG_JSON"
)

var (
	// ErrNoConfig is LoadEnv's answer when neither the command line, the
	// environment nor the entry point names a config.
	ErrNoConfig = errors.New("no config: give --config FILE, or set " + EnvConfigFile + " or " + EnvConfigJSON)
	// ErrConfigEnvBoth is wrapped (with ErrConfig) when the environment
	// sets both ASKPLANE_CONFIG and ASKPLANE_CONFIG_JSON: which one wins
	// would be a guess, and two entry points once guessed differently.
	ErrConfigEnvBoth = errors.New("set " + EnvConfigFile + " or " + EnvConfigJSON + ", not both")
)

// LoadEnv returns the config an entry point runs with. Every entry point
// (askplane serve, askplane insights, the Lambda function) reads it here,
// in one order:
//
//  1. path, when the command line names a file (--config): it wins over
//     the environment;
//  2. else the environment: ASKPLANE_CONFIG (a file, read with Load) or
//     ASKPLANE_CONFIG_JSON (the config itself, read with Decode); both
//     set and non-empty is refused with ErrConfigEnvBoth, whatever they
//     hold, rather than one silently shadowing the other;
//  3. else fallback, the file the entry point defaults to (the Lambda
//     function's askplane.json beside its binary), when it has one;
//  4. else ErrNoConfig.
//
// An empty variable counts as unset. env nil reads the process's.
func LoadEnv(env Env, path, fallback string) (*Config, error) {
	if path != "" {
		return Load(path)
	}
	file, _ := env.lookup(EnvConfigFile)
	inline, _ := env.lookup(EnvConfigJSON)
	switch {
	case file != "" && inline != "":
		return nil, fmt.Errorf("%w: %w", ErrConfig, ErrConfigEnvBoth)
	case file != "":
		return Load(file)
	case inline != "":
		return Decode([]byte(inline))
	case fallback != "":
		return Load(fallback)
	}
	return nil, ErrNoConfig
}
