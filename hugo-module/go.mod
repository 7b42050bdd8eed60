module github.com/askplane/askplane/hugo-module

// The Hugo module: templates, widget assets and strings, and no Go
// requirements, so a site that imports it downloads only these files. An
// old go line keeps Hugo's go commands from fetching a toolchain.
go 1.18
