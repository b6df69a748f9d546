import torch
import torch.nn as nn
model = nn.Sequential(
    nn.Conv2d(3, 16, kernel_size=3, stride=2, padding=1, bias=False),
    nn.BatchNorm2d(16, momentum=0.01),
    nn.ReLU(inplace=True),
    nn.MaxPool2d(kernel_size=2, stride=2),
    nn.Dropout(p=0.25),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(16, 10),
    nn.LogSoftmax(dim=1),
)
print(model)
print(nn.LSTM(10, 20, num_layers=2, batch_first=True, dropout=0.1, bidirectional=True))
print(nn.GRU(4, 8), nn.RNN(4, 8, nonlinearity='relu'), nn.Embedding(100, 16, padding_idx=0), nn.EmbeddingBag(10, 3, mode='sum'))
print(nn.LayerNorm([4, 5]), nn.GroupNorm(2, 4), nn.InstanceNorm2d(3), nn.BatchNorm1d(8, affine=False, track_running_stats=False))
print(nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=1), nn.Conv1d(2, 4, 5, dilation=2, groups=2, padding_mode='reflect', padding=4))
print(nn.Dropout2d(), nn.AlphaDropout(0.2), nn.LeakyReLU(0.2), nn.ELU(alpha=0.5), nn.Softmax(dim=-1), nn.GELU(approximate='tanh'), nn.Hardtanh(-2, 2), nn.Softplus(beta=2), nn.PReLU(3), nn.Threshold(0.1, 20))
print(nn.MultiheadAttention(8, 2, dropout=0.1), nn.Upsample(scale_factor=2, mode='nearest'), nn.Identity(), nn.Unflatten(1, (2, 2)), nn.ZeroPad2d((1, 1, 2, 0)))
print(nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16))
print(nn.MSELoss(), nn.CrossEntropyLoss(label_smoothing=0.1), nn.BCEWithLogitsLoss(pos_weight=torch.ones(2)), nn.KLDivLoss(reduction='batchmean'), nn.HuberLoss(delta=2.0))
print(nn.AvgPool2d(3, stride=1, padding=1), nn.MaxPool1d(2, return_indices=True), nn.AdaptiveMaxPool1d(4), nn.PixelShuffle(2), nn.Bilinear(2, 3, 4), nn.CosineSimilarity(dim=1), nn.PairwiseDistance())
opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
print(opt)
print(torch.optim.SGD([{'params': model[0].parameters()}, {'params': model[7].parameters(), 'lr': 0.1}], lr=0.01, momentum=0.9))
print(torch.optim.AdamW(model.parameters()))
print(torch.optim.RMSprop(model.parameters(), lr=0.01))
print(torch.optim.Adagrad(model.parameters()))
