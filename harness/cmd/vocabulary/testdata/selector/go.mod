module example.com/selector

go 1.24
