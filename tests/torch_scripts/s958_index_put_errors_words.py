# index_put_ / masked assignment errors: shape mismatch, dtype of values, tuple of indices required
import torch

def show(fn):
    try:
        fn()
        print("ok")
    except Exception as e:
        print(type(e).__name__ + ":", str(e).split(" (")[0])

x = torch.zeros(3)
show(lambda: x.index_put_((torch.tensor([0, 1]),), torch.tensor([1.0, 2.0, 3.0])))
show(lambda: x.index_put_((torch.tensor([0, 1]),), torch.tensor([1, 2])))
show(lambda: x.index_put_((torch.tensor([0.0]),), torch.tensor([1.0])))
show(lambda: x.index_put_((torch.tensor([5]),), torch.tensor([1.0])))
show(lambda: x.index_put_([torch.tensor([1])], torch.tensor(4.0)))
print(x)
show(lambda: torch.zeros(2, 2).index_put_((torch.tensor([0]), torch.tensor([0, 1, 1])), torch.tensor(1.0)))
