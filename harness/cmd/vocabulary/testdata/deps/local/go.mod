module example.com/local

go 1.24
