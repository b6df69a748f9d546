# splitting and joining: split sizes, tensor_split indices, chunk remainders, grads of pieces
import torch

x = torch.arange(10.0).requires_grad_()
parts = x.split([3, 3, 4])
print([p.tolist() for p in parts], parts[0].grad_fn.name())
print([p.shape[0] for p in x.chunk(3)], [p.shape[0] for p in x.chunk(4)], len(torch.arange(5).chunk(6)))
print([p.tolist() for p in torch.tensor_split(torch.arange(7), 3)])
print([p.tolist() for p in torch.tensor_split(torch.arange(7), [1, 5])])
print([p.tolist() for p in torch.arange(6).reshape(2, 3).unbind(1)])
(parts[0].sum() * 2 + parts[2].sum()).backward()
print(x.grad)
m = torch.arange(12.0).reshape(3, 4)
print(torch.hsplit(m, 2)[1], torch.vsplit(m, [1])[1].shape, torch.dsplit(m.reshape(1, 3, 4), 2)[0].shape)
print(torch.hstack([m[:, :1], m[:, 3:]]), torch.vstack([torch.ones(2), torch.zeros(2)]).shape)
print(torch.dstack([torch.ones(2), torch.zeros(2)]).shape, torch.column_stack([torch.ones(2), torch.zeros(2)]))
print(torch.row_stack([torch.ones(2), torch.zeros(2)]) if hasattr(torch, "row_stack") else None)
try:
    x.split([3, 3])
except RuntimeError as e:
    print(str(e)[:120])
