module github.com/philippgille/chromem-go

go 1.21
