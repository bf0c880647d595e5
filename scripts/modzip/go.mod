module github.com/datg/datg/scripts/modzip

go 1.26.0

require golang.org/x/mod v0.36.0
