"""Pictures people upload to a scene (a backdrop, a card's picture): checked, re-encoded and
kept, and who may see each.

Every upload is opened with Pillow and drawn again into a new WebP file, never stored as sent:
only its pixels survive, so what a camera or an editor wrote into the file (the place a photo
was taken, a comment, a colour profile, a second image) is gone, and a file that only claims
to be a picture (an SVG, which can carry scripts; a page; a program) is refused in words. The
size of the file, its pixels before they are decoded (a small file can unpack into gigabytes:
a decompression bomb) and the pixels kept are all bounded, and so is what a campaign keeps.

Pictures are kept in the database (``models.Picture``): every process of scaled mode
reads it, a campaign's backup carries them with the rest, and at these sizes (a few hundred
kilobytes a picture, ``MAX_STORED`` a campaign) the database serves them without strain. They
are served only to the campaign's members who may see what shows them (``may_see``).
"""

import hashlib
import io
import warnings
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.db.models import Q, Sum
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from campaigns.models import Campaign, Membership
from fudgetable.row_lock import hold
from rolls.scene.models import Card, Picture, Scene

MAX_UPLOAD = 10 * 1024 * 1024  # a phone's photo is 2 to 6 MB
MAX_PIXELS = 40_000_000  # before decoding: a 40-megapixel camera's photo, and no bigger
LONGEST_SIDE = 2048  # kept: sharp on a desktop's board, a few hundred kilobytes
MAX_STORED = 8 * 1024 * 1024  # a campaign's pictures: in base64 its backup stays within MAX_BYTES
TAKEN = {"JPEG", "PNG", "WEBP", "GIF"}
QUALITY = 80
CONTENT_TYPE = "image/webp"


class PictureRefused(ValidationError):
    """Why an upload is not taken, in words for the person who sent it (``message``)."""

    message: str


@dataclass(frozen=True)
class Encoded:
    data: bytes
    width: int
    height: int


def _opened(data: bytes) -> Image.Image:
    """The upload as a picture Pillow can read, its size checked before any pixel is."""
    try:
        with warnings.catch_warnings():
            # Pillow warns past its own limit and refuses past twice it; ours is lower.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise PictureRefused(_too_many_pixels()) from error
    except (UnidentifiedImageError, OSError, ValueError) as error:
        raise PictureRefused(_not_a_picture()) from error
    if image.format not in TAKEN:
        raise PictureRefused(_not_a_picture())
    width, height = image.size
    if width < 1 or height < 1 or width * height > MAX_PIXELS:
        raise PictureRefused(_too_many_pixels())
    return image


def _not_a_picture() -> str:
    return _(
        "That file is not a picture FudgeTable takes: send a JPEG, PNG, WebP or GIF "
        "(an SVG is refused, as it can carry scripts)."
    )


def _too_many_pixels() -> str:
    return _(
        "That picture has too many pixels (more than %(millions)d million) to open safely: "
        "a decompression bomb, or a very large scan. Send a smaller one."
    ) % {"millions": MAX_PIXELS // 1_000_000}


def reencode(data: bytes) -> Encoded:
    """The picture in ``data`` drawn again as WebP, at most ``LONGEST_SIDE`` pixels a side,
    turned upright as its camera said and with nothing but its pixels; ``PictureRefused``
    says why not."""
    if len(data) > MAX_UPLOAD:
        raise PictureRefused(_too_big())
    image = _opened(data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image.seek(0)  # a GIF's first frame
            _drafted(image)
            image.load()
            # In place: turned or not, a 40-megapixel picture is 160 MB a copy.
            ImageOps.exif_transpose(image, in_place=True)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise PictureRefused(_too_many_pixels()) from error
    except (OSError, ValueError, SyntaxError, EOFError) as error:
        raise PictureRefused(
            _("That picture is damaged or cut short; it could not be read.")
        ) from error
    keeps_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    mode = "RGBA" if keeps_alpha else "RGB"
    if image.mode != mode:
        image = image.convert(mode)
    image.thumbnail((LONGEST_SIDE, LONGEST_SIDE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    # A new image from the pixels alone: no EXIF, XMP, ICC profile or comment goes along.
    clean = Image.new(image.mode, image.size)
    clean.paste(image)
    clean.save(out, "WEBP", quality=QUALITY, method=4)
    return Encoded(out.getvalue(), clean.width, clean.height)


def _drafted(image: Image.Image) -> None:
    """A JPEG (a camera's photo) set to be decoded at a half, a quarter or an eighth of its
    size where that still covers what is kept: libjpeg scales as it decodes, so a 40-megapixel
    photo costs a third of the CPU and a quarter of the memory it would at full size. The
    other formats have no such mode; their cost is bounded by ``MAX_PIXELS`` alone
    (docs/performance.md)."""
    width, height = image.size
    scale = LONGEST_SIDE / max(width, height)
    if image.format == "JPEG" and scale < 1:
        image.draft(None, (max(1, int(width * scale)), max(1, int(height * scale))))


def from_backup(data: bytes) -> tuple[Encoded, tuple[int, int]]:
    """A picture from a backup as the table keeps it: one ``reencode`` wrote (a WebP within
    the limits, readable to its last pixel, holding nothing but its pixels in the chunks the
    encoder writes) is kept byte for byte, so a restored campaign backs up as the same
    document (drawing a lossy WebP again never gives the same bytes twice); any other is
    drawn again as an upload is, so what a file anyone can write carries beside the pixels
    (a chunk of HTML, EXIF, a profile) is gone. Only a WebP of at most ``LONGEST_SIDE``
    pixels a side, as the table keeps, is taken: a restore opens no larger picture.
    Also the file's own size, which the backup names (drawn again, a picture its EXIF says
    to turn comes upright)."""
    image = _opened(data)
    if image.format != "WEBP" or max(image.size) > LONGEST_SIDE or len(data) > MAX_STORED:
        raise PictureRefused(_("is not a picture as FudgeTable keeps them (a WebP)"))
    try:
        image.load()
    except (OSError, ValueError, SyntaxError, EOFError) as error:
        raise PictureRefused(_("is a damaged picture")) from error
    if _as_encoded(data) and not {"exif", "xmp", "icc_profile"} & set(image.info):
        return Encoded(data, image.width, image.height), image.size
    return reencode(data), image.size


# The chunks libwebp writes for a still picture with nothing but its pixels: lossy, lossy
# with its alpha, lossless (https://developers.google.com/speed/webp/docs/riff_container).
ENCODED_CHUNKS = ((b"VP8 ",), (b"VP8L",), (b"VP8X", b"ALPH", b"VP8 "), (b"VP8X", b"VP8 "))
ALPHA_FLAG = 0x10  # VP8X's flag for "has alpha"; any other (EXIF, XMP, ICC, animation) is more


def _as_encoded(data: bytes) -> bool:
    """Whether the RIFF container of ``data`` is exactly as the encoder writes one: its
    length the file's, only the chunks of ``ENCODED_CHUNKS``, each whole, nothing after."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        return False
    if int.from_bytes(data[4:8], "little") != len(data) - 8:
        return False
    names, at = [], 12
    while at < len(data):
        if at + 8 > len(data):
            return False
        name, size = data[at : at + 4], int.from_bytes(data[at + 4 : at + 8], "little")
        end = at + 8 + size + (size & 1)
        if end > len(data):
            return False
        if name == b"VP8X" and (size != 10 or data[at + 8] & ~ALPHA_FLAG):
            return False
        names.append(name)
        at = end
    return tuple(names) in ENCODED_CHUNKS


def _too_big() -> str:
    return _("That file is over %(megabytes)d MB: send a smaller picture.") % {
        "megabytes": MAX_UPLOAD // (1024 * 1024)
    }


def read_upload(upload: UploadedFile) -> bytes:
    """The uploaded file's bytes, refused unread when it says it is too big."""
    if upload.size is None or upload.size > MAX_UPLOAD:
        raise PictureRefused(_too_big())
    data = upload.read(MAX_UPLOAD + 1)
    if len(data) > MAX_UPLOAD:
        raise PictureRefused(_too_big())
    return data


def _full() -> str:
    return _(
        "This campaign's pictures fill their %(megabytes)d MB: remove a scene's or a "
        "card's picture first."
    ) % {"megabytes": MAX_STORED // (1024 * 1024)}


def stored_bytes(campaign: Campaign) -> int:
    return Picture.objects.filter(campaign=campaign).aggregate(total=Sum("size"))["total"] or 0


def picture_draw(*, campaign: Campaign, data: bytes) -> Encoded:
    """The upload drawn again for the campaign (``reencode``); ``PictureRefused`` says why
    not. A campaign whose pictures fill their room refuses before a pixel is decoded: a large
    picture costs up to a second of CPU to draw, and one that could never be kept was drawn
    again and again (issue 37). Call it outside any transaction: on SQLite a transaction
    holds the one write lock, and a picture drawn inside one held every table's rolls."""
    if stored_bytes(campaign) >= MAX_STORED:
        raise PictureRefused(_full())
    return reencode(data)


@transaction.atomic
def picture_keep(*, campaign: Campaign, uploaded_by_id: int | None, encoded: Encoded) -> Picture:
    """Keeps a picture ``picture_draw`` drew for the campaign, if it has room for it."""
    hold(campaign)  # two uploads at once cannot both squeeze under the limit
    if stored_bytes(campaign) + len(encoded.data) > MAX_STORED:
        raise PictureRefused(_full())
    return Picture.objects.create(
        campaign=campaign,
        data=encoded.data,
        content_type=CONTENT_TYPE,
        width=encoded.width,
        height=encoded.height,
        size=len(encoded.data),
        digest=hashlib.sha256(encoded.data).hexdigest(),
        uploaded_by_id=uploaded_by_id,
    )


def picture_create(*, campaign: Campaign, uploaded_by_id: int | None, data: bytes) -> Picture:
    """Draws and keeps a picture for the campaign; ``PictureRefused`` says why not."""
    encoded = picture_draw(campaign=campaign, data=data)
    return picture_keep(campaign=campaign, uploaded_by_id=uploaded_by_id, encoded=encoded)


def picture_forget(picture: Picture | None) -> None:
    """Removes a picture nothing shows any more (a backdrop or card picture replaced)."""
    if picture is None:
        return
    used = Scene.objects.filter(backdrop=picture).exists()
    if not used and not Card.objects.filter(picture=picture).exists():
        picture.delete()


def may_see(membership: Membership, picture: Picture) -> bool:
    """GMs see every picture of their campaign; anyone else only while something shown to
    them shows it: the backdrop of the scene the table sees now, or the picture of a card of
    that scene shown to them (or theirs). A scene taken off the table, or a card kept from
    them, shows them nothing, whatever its picture."""
    if picture.campaign_id != membership.campaign_id:
        return False
    if membership.is_gm:
        return True
    scene = Scene.objects.filter(campaign_id=membership.campaign_id, current=True).first()
    if scene is None:
        return False
    if scene.backdrop_id == picture.pk:
        return True
    cards = Card.objects.filter(scene=scene, picture=picture).filter(
        Q(shown=Card.Shown.EVERYONE) | Q(author_id=membership.user_id) | Q(shown=Card.Shown.SOME)
    )
    return any(card.seen_by(membership.user_id, gm=False) for card in cards)
