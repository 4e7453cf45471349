module github.com/oficina/oficina

go 1.26
