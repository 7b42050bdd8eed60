module github.com/askplane/askplane/exampleSite

go 1.26.0

require github.com/askplane/askplane v0.0.0

replace github.com/askplane/askplane => ../
