import torch

x = torch.tensor([[5.0, 7.0, 9.0], [2.0, 4.0, 6.0]])
first = x[0]
first **= 2
print(x)
second = x[1]
second %= 4
print(x)
whole = x
whole //= 3
print(x, whole is x)
i = torch.tensor([7, 9, 11])
j = i
j //= 2
print(i)
print(reversed(torch.arange(4)), reversed(torch.tensor(2.0)))
print(list(reversed(torch.tensor([[1, 2], [3, 4]]))))
try:
    del x[0]
except TypeError as e:
    print("TypeError:", e)
