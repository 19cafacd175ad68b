module example.com/sets

go 1.24
