module example.com/taint

go 1.24
