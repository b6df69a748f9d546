import torch
import torch.nn as nn

# torchtext-tutorial style: flat token list + offsets
text = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 7, 6, 1])
offsets = torch.tensor([0, 4, 4, 7])  # one empty bag
labels = torch.tensor([0, 1, 1, 0])


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, mode="mean")
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        with torch.no_grad():
            self.embedding.weight.copy_(torch.linspace(-initrange, initrange, 10 * 4).view(10, 4))
            self.fc.weight.copy_(torch.linspace(-initrange, initrange, 8).view(2, 4))
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)


model = TextClassificationModel(10, 4, 2)
out = model(text, offsets)
print(out)
crit = torch.nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=5.0)
sched = torch.optim.lr_scheduler.StepLR(opt, 1.0, gamma=0.1)
for epoch in range(3):
    opt.zero_grad()
    loss = crit(model(text, offsets), labels)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
    opt.step()
    sched.step()
    print(epoch, round(loss.item(), 6), sched.get_last_lr())

for mode in ["sum", "max"]:
    bag = nn.EmbeddingBag(10, 3, mode=mode)
    with torch.no_grad():
        bag.weight.copy_(torch.arange(30.).view(10, 3) % 7)
    inp = torch.tensor([[1, 2, 3], [4, 4, 0]])
    r = bag(inp)
    r.sum().backward()
    print(mode, r.tolist(), bag.weight.grad.sum(1).tolist())

bag = nn.EmbeddingBag(10, 3, mode="sum")
with torch.no_grad():
    bag.weight.fill_(1.0)
w = torch.tensor([0.5, 2.0, 1.0, 1.0, 3.0])
print(bag(torch.tensor([1, 2, 3, 4, 5]), torch.tensor([0, 2]), per_sample_weights=w))
print(nn.EmbeddingBag.from_pretrained(torch.eye(3), mode="sum")(torch.tensor([[0, 2]])))
