# Comparing tensors: equal vs eq vs allclose vs isclose with rtol/atol/equal_nan, and
# torch.testing.assert_close passing and failing (message's first line)
import torch

a = torch.tensor([1.0, 2.0, float("nan")])
b = torch.tensor([1.0, 2.0000001, float("nan")])
print(torch.equal(a, a), torch.equal(a[:2], a[:2]), a == a, torch.eq(a, b))
print(torch.allclose(a, b), torch.allclose(a, b, equal_nan=True), torch.isclose(a, b), torch.isclose(a, b, equal_nan=True))
print(torch.isclose(torch.tensor([1.0, 100.0]), torch.tensor([1.1, 101.0]), rtol=0.0, atol=0.5), torch.allclose(torch.tensor([1.0]), torch.tensor([1.05]), rtol=0.1))
print(torch.equal(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])), torch.equal(torch.ones(2), torch.ones(3)))
torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-9]))
for args, kw in [((torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5])), {}),
                 ((torch.tensor([1]), torch.tensor([1.0])), {}),
                 ((torch.ones(2), torch.ones(3)), {}),
                 ((torch.tensor([1.0, 2.0]), torch.tensor([1.1, 2.0])), {"rtol": 0.0, "atol": 0.2}),
                 ((torch.tensor([1]), torch.tensor([1.0])), {"check_dtype": False})]:
    try:
        torch.testing.assert_close(*args, **kw)
        print("passed")
    except AssertionError as e:
        print("AssertionError", str(e).splitlines()[0])
print(torch.ne(a, b), a.not_equal(b), torch.tensor([1, 2]).eq(2), torch.ge(torch.tensor([1, 3]), 2))
