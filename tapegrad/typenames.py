"""``torch.typename``, and the file of torch/nn/modules each layer class lives in, by name:
PyTorch's qualified class names (``torch.nn.modules.container.Sequential``), as
``torch.typename`` and messages naming a module's class show them.  tapegrad's classes keep their own ``__module__`` (pickle
and ``tg.save`` find a class by it; set to torch's, they would load as torch's classes).
"""
from .tensor import Tensor

_FILES = {
    "activation": (
        "CELU ELU GELU GLU Hardshrink Hardsigmoid Hardswish Hardtanh LeakyReLU LogSigmoid "
        "LogSoftmax Mish MultiheadAttention PReLU RReLU ReLU ReLU6 SELU SiLU Sigmoid Softmax "
        "Softmax2d Softmin Softplus Softshrink Softsign Tanh Tanhshrink Threshold"),
    "adaptive": "AdaptiveLogSoftmaxWithLoss",
    "batchnorm": (
        "BatchNorm1d BatchNorm2d BatchNorm3d LazyBatchNorm1d LazyBatchNorm2d LazyBatchNorm3d "
        "SyncBatchNorm"),
    "channelshuffle": "ChannelShuffle",
    "container": "Container ModuleDict ModuleList ParameterDict ParameterList Sequential",
    "conv": (
        "Conv1d Conv2d Conv3d ConvTranspose1d ConvTranspose2d ConvTranspose3d LazyConv1d "
        "LazyConv2d LazyConv3d LazyConvTranspose1d LazyConvTranspose2d LazyConvTranspose3d"),
    "distance": "CosineSimilarity PairwiseDistance",
    "dropout": "AlphaDropout Dropout Dropout1d Dropout2d Dropout3d FeatureAlphaDropout",
    "flatten": "Flatten Unflatten",
    "fold": "Fold Unfold",
    "instancenorm": (
        "InstanceNorm1d InstanceNorm2d InstanceNorm3d LazyInstanceNorm1d LazyInstanceNorm2d "
        "LazyInstanceNorm3d"),
    "linear": "Bilinear Identity LazyLinear Linear",
    "loss": (
        "BCELoss BCEWithLogitsLoss CTCLoss CosineEmbeddingLoss CrossEntropyLoss "
        "GaussianNLLLoss HingeEmbeddingLoss HuberLoss KLDivLoss L1Loss LinearCrossEntropyLoss "
        "MSELoss MarginRankingLoss MultiLabelMarginLoss MultiLabelSoftMarginLoss "
        "MultiMarginLoss NLLLoss NLLLoss2d PoissonNLLLoss SmoothL1Loss SoftMarginLoss "
        "TripletMarginLoss TripletMarginWithDistanceLoss"),
    "module": "Module",
    "normalization": "CrossMapLRN2d GroupNorm LayerNorm LocalResponseNorm RMSNorm",
    "padding": (
        "CircularPad1d CircularPad2d CircularPad3d ConstantPad1d ConstantPad2d ConstantPad3d "
        "ReflectionPad1d ReflectionPad2d ReflectionPad3d ReplicationPad1d ReplicationPad2d "
        "ReplicationPad3d ZeroPad1d ZeroPad2d ZeroPad3d"),
    "pixelshuffle": "PixelShuffle PixelUnshuffle",
    "pooling": (
        "AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d "
        "AdaptiveMaxPool2d AdaptiveMaxPool3d AvgPool1d AvgPool2d AvgPool3d "
        "FractionalMaxPool2d FractionalMaxPool3d LPPool1d LPPool2d LPPool3d MaxPool1d "
        "MaxPool2d MaxPool3d MaxUnpool1d MaxUnpool2d MaxUnpool3d"),
    "rnn": "GRU GRUCell LSTM LSTMCell RNN RNNBase RNNCell RNNCellBase",
    "sparse": "Embedding EmbeddingBag",
    "transformer": (
        "Transformer TransformerDecoder TransformerDecoderLayer TransformerEncoder "
        "TransformerEncoderLayer"),
    "upsampling": "Upsample UpsamplingBilinear2d UpsamplingNearest2d",
}
TORCH_MODULE = {name: f"torch.nn.modules.{file}" for file, names in _FILES.items()
                for name in names.split()}
TORCH_MODULE["DataParallel"] = "torch.nn.parallel.data_parallel"


def typename(obj):
    """PyTorch's type name: ``'torch.FloatTensor'`` for a float32 tensor, else the object's
    (or, for a class or function, its own) module-qualified name, ``'int'`` for a builtin."""
    if isinstance(obj, Tensor):
        return obj.type()
    if hasattr(obj, "__qualname__") or hasattr(obj, "__name__"):
        module = getattr(obj, "__module__", "") or ""
        qualname = getattr(obj, "__qualname__", None) or obj.__name__
    else:
        module, qualname = type(obj).__module__ or "", type(obj).__qualname__
    if module.startswith("tapegrad.nn."):  # (a layer: its file in torch/nn/modules)
        module = TORCH_MODULE.get(qualname, module)
    if module.split(".")[0] == "tapegrad":  # (PyTorch programs read torch's names)
        module = "torch" + module[len("tapegrad"):]
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"
