import torch


def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", r)
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:80])


i = torch.tensor([1, 2, 3])
attempt("int add_ float", lambda: i.clone().add_(1.5))
attempt("int mul_ int", lambda: i.clone().mul_(2))
attempt("int div_", lambda: i.clone().div_(2))
attempt("int div_ floor", lambda: i.clone().div_(2, rounding_mode="floor"))
attempt("float add_ int", lambda: torch.ones(2).add_(torch.tensor([1, 2])))
attempt("bool add_", lambda: torch.tensor([True]).add_(1))
attempt("int mean", lambda: i.mean())
attempt("int mean dtype", lambda: i.mean(dtype=torch.float64))
attempt("max empty", lambda: torch.tensor([]).max())
attempt("argmax empty", lambda: torch.tensor([]).argmax())
attempt("sum empty", lambda: torch.tensor([]).sum())
attempt("prod empty", lambda: torch.tensor([]).prod())
attempt("cumsum bool", lambda: torch.tensor([True, True, False]).cumsum(0))
attempt("clamp int float", lambda: i.clamp(0.5, 2.5))
attempt("int pow neg", lambda: i ** -1)
attempt("int float pow", lambda: i ** -1.0)
attempt("sqrt int", lambda: i.sqrt())
attempt("float to int overflow", lambda: torch.tensor([3e9]).int().dtype)
attempt("masked_fill int float", lambda: i.masked_fill(i > 1, 0.5))
attempt("index_put bool", lambda: i.clone().index_put_((torch.tensor([True, False, True]),), torch.tensor(9)))
attempt("fill_ float on int", lambda: i.clone().fill_(2.7))
attempt("copy_ float into int", lambda: i.clone().copy_(torch.tensor([1.9, -1.9, 2.5])))
attempt("bitwise float", lambda: torch.ones(2) & torch.ones(2))
attempt("floor int", lambda: i.floor())
attempt("round int", lambda: i.round(decimals=1) if False else i.round())
attempt("sign bool", lambda: torch.tensor([True, False]).sign())
attempt("neg bool", lambda: -torch.tensor([True]))
attempt("sub bool", lambda: torch.tensor([True]) - torch.tensor([False]))
