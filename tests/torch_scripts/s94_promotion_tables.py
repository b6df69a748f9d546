import torch

dts = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.float32, torch.float64]
for a in dts:
    print(a, [str(torch.promote_types(a, b)).replace('torch.', '') for b in dts])
for a in dts:
    print(a, ''.join('1' if torch.can_cast(a, b) else '0' for b in dts))
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5], dtype=torch.float32)
bt = torch.tensor([True, False, True])
print((i + f).dtype, (i * bt).dtype, (bt + bt).dtype, (bt * 2.5).dtype, (bt & bt).dtype)
print(torch.result_type(i, 1.0), torch.result_type(i, f), torch.result_type(f, 2), torch.result_type(bt, 1), torch.result_type(torch.tensor(1.0), i))
print(torch.result_type(torch.tensor(1, dtype=torch.int8), torch.tensor(1, dtype=torch.int32)), torch.result_type(torch.tensor([1], dtype=torch.int8), torch.tensor(1000)))
print(torch.tensor([7, -7]) // 2, torch.tensor([7.0, -7.0]) // 2, torch.floor_divide(torch.tensor([7, -7]), torch.tensor([2, 2])))
print(torch.true_divide(torch.tensor([7, 8]), 2), torch.div(torch.tensor([7, -7]), 2, rounding_mode='trunc'), torch.div(torch.tensor([7, -7]), 2, rounding_mode='floor'))
print(torch.div(torch.tensor([7.0, -7.0]), 2, rounding_mode='trunc'), (torch.tensor([1, 2]) / torch.tensor([2, 4])).dtype)
print(torch.tensor([1, 2], dtype=torch.uint8) + 255, torch.tensor([100], dtype=torch.int8) + torch.tensor([100], dtype=torch.int8))
print((torch.tensor([1, 2], dtype=torch.int32) + 2 ** 40).dtype, (torch.tensor([1.0], dtype=torch.float32) + torch.tensor(2.0, dtype=torch.float64)).dtype)
print((torch.tensor([1], dtype=torch.int16) + torch.tensor(1.5)).dtype, (torch.tensor(3) + torch.tensor([1.0], dtype=torch.float16)).dtype)
print(bt.sum(), bt.sum().dtype, bt.float().mean(), torch.tensor([1, 2], dtype=torch.int8).sum().dtype, torch.tensor([1, 2], dtype=torch.uint8).prod().dtype)
print(torch.tensor([3]) ** 2, (torch.tensor([3]) ** 2.0).dtype, (2 ** torch.tensor([3])).dtype, torch.tensor([2]) ** -1 if False else None)
print(torch.tensor([5, 6]).float().dtype, torch.tensor([1.7, -1.7]).long(), torch.tensor([1.7, -1.7]).int(), torch.tensor([0.0, 2.0]).bool())
print(torch.tensor([1, 0, 2]).logical_not(), torch.tensor([1.0, 0.0]).logical_and(torch.tensor([1, 1])), torch.tensor([3, 5]) ^ torch.tensor([1, 1]), ~torch.tensor([0, 1], dtype=torch.int32))
print(torch.is_floating_point(i), torch.is_floating_point(f), torch.tensor([1.0]).is_signed(), torch.tensor([1], dtype=torch.uint8).is_signed())
print(torch.finfo(torch.float32).eps, torch.finfo(torch.float64).max, torch.iinfo(torch.int8).min, torch.iinfo(torch.int32).max, torch.finfo().tiny)
