# assigning gradients by hand to float32 parameters: dtype errors, then a correct assignment
import torch

p = torch.nn.Parameter(torch.zeros(3, dtype=torch.float32))
for bad in (torch.zeros(3), torch.zeros(3, dtype=torch.int64), torch.zeros(3, dtype=torch.bool)):
    try:
        p.grad = bad
    except RuntimeError as e:
        print(str(e).split(". ")[0])
p.grad = torch.ones(3, dtype=torch.float32)
torch.optim.SGD([p], lr=0.5).step()
print(p)
