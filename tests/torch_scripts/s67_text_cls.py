import torch
from torch import nn
from torch.utils.data import DataLoader

vocab = {w: i for i, w in enumerate("<unk> the a cat dog sat ran on mat fast slow big".split())}
text_pipeline = lambda x: [vocab.get(t, 0) for t in x.split()]
label_pipeline = lambda x: int(x) - 1
train_iter = [(1, "the cat sat on the mat"), (2, "a dog ran fast"), (1, "the big cat sat"), (2, "a slow dog ran"), (1, "cat on mat"), (2, "dog ran on a mat fast")]
print(text_pipeline('the cat sat on the zebra'), label_pipeline('2'))


def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for _label, _text in batch:
        label_list.append(label_pipeline(_label))
        processed_text = torch.tensor(text_pipeline(_text), dtype=torch.int64)
        text_list.append(processed_text)
        offsets.append(processed_text.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    text_list = torch.cat(text_list)
    return label_list, text_list, offsets


dataloader = DataLoader(train_iter, batch_size=3, shuffle=False, collate_fn=collate_batch)
for label, text, offsets in dataloader:
    print(label, text, offsets)


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super(TextClassificationModel, self).__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()
        with torch.no_grad():
            self.embedding.weight.copy_(torch.sin(torch.arange(self.embedding.weight.numel(), dtype=torch.float64)).reshape(self.embedding.weight.shape) * initrange)
            self.fc.weight.copy_(torch.cos(torch.arange(self.fc.weight.numel(), dtype=torch.float64)).reshape(self.fc.weight.shape) * initrange)

    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)


model = TextClassificationModel(len(vocab), 4, 2)
print(model)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)


def train(dataloader):
    model.train()
    total_acc, total_count = 0, 0
    for idx, (label, text, offsets) in enumerate(dataloader):
        optimizer.zero_grad()
        predicted_label = model(text, offsets)
        loss = criterion(predicted_label, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        total_acc += (predicted_label.argmax(1) == label).sum().item()
        total_count += label.size(0)
    return total_acc / total_count, round(loss.item(), 6)


def evaluate(dataloader):
    model.eval()
    total_acc, total_count = 0, 0
    with torch.no_grad():
        for idx, (label, text, offsets) in enumerate(dataloader):
            predicted_label = model(text, offsets)
            total_acc += (predicted_label.argmax(1) == label).sum().item()
            total_count += label.size(0)
    return total_acc / total_count


for epoch in range(1, 4):
    print(epoch, train(dataloader), evaluate(dataloader), scheduler.get_last_lr())
    scheduler.step()


def predict(text, text_pipeline):
    with torch.no_grad():
        text = torch.tensor(text_pipeline(text))
        output = model(text, torch.tensor([0]))
        return output.argmax(1).item() + 1


print(predict("the cat sat on the mat", text_pipeline), predict("dog ran fast", text_pipeline))
bag = nn.EmbeddingBag.from_pretrained(torch.arange(12.).reshape(6, 2), mode='sum')
print(bag(torch.tensor([[0, 2], [1, 5]])), bag(torch.tensor([1, 2, 4, 5]), torch.tensor([0, 3])))
bag = nn.EmbeddingBag(6, 2, mode='max')
with torch.no_grad():
    bag.weight.copy_(torch.arange(12.).reshape(6, 2) % 5)
print(bag(torch.tensor([0, 3, 2, 5]), torch.tensor([0, 2])).detach())
print(nn.EmbeddingBag(6, 2, mode='mean', padding_idx=0)(torch.tensor([[0, 0]])).detach())
ws = torch.tensor([0.5, 2.0, 1.0])
bag = nn.EmbeddingBag.from_pretrained(torch.arange(12.).reshape(6, 2), mode='sum')
print(bag(torch.tensor([1, 2, 3]), torch.tensor([0, 1]), per_sample_weights=ws))
