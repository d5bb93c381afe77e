//! Sample paragraphs in the languages the legacy encodings serve, written for
//! this project (no third-party text), used to build realistic benchmark
//! inputs: native text mixed with markup, digits and punctuation.

/// (language, paragraph)
pub const SAMPLES: &[(&str, &str)] = &[
    (
        "English",
        "The quick survey of the harbour found twelve boats, three of them painted blue, and a lighthouse keeper who had not seen a stranger in years. He offered tea and told stories about storms until the evening ferry arrived.",
    ),
    (
        "French",
        "Le marché du samedi était plein de légumes frais : des poireaux, des carottes, des pommes de terre et même quelques fraises précoces. « Goûtez donc celles-ci », dit la marchande en souriant, « elles viennent de la ferme d'à côté. » Où trouver mieux à ce prix ?",
    ),
    (
        "German",
        "Über die Brücke führte ein schmaler Weg zum Dorf, wo die Bäckerei schon früh am Morgen geöffnet hatte. Die Straße war noch nass vom Regen, und aus der Küche duftete es nach frischem Brot und süßen Brötchen für die Gäste.",
    ),
    (
        "Spanish",
        "El señor Núñez abrió la ventana y miró el jardín: las rosas habían florecido durante la noche. ¿Quién había regado las plantas? Su nieta, que siempre se levantaba antes del amanecer, sonrió desde el camino de piedra.",
    ),
    (
        "Polish",
        "Wczoraj wieczorem pojechaliśmy nad jezioro, gdzie łabędzie pływały wśród trzcin. Żółty księżyc świecił nad lasem, a dzieci śpiewały piosenki przy ognisku. Następnego dnia wróciliśmy do miasta zmęczeni, lecz szczęśliwi.",
    ),
    (
        "Czech",
        "Na náměstí stála stará kašna, kolem které si hrály děti. Řeka za městem byla po deštích rozvodněná a rybáři čekali na lepší počasí. Večer jsme šli do hospody, kde hrála muzika až do půlnoci.",
    ),
    (
        "Russian",
        "Утром мы вышли из дома рано, когда улицы ещё были пусты. Снег скрипел под ногами, а над рекой поднимался лёгкий туман. В кафе на углу уже варили кофе, и хозяйка приветливо кивнула нам из-за стойки.",
    ),
    (
        "Ukrainian",
        "Уранці ми пішли до річки, де рибалки вже чекали на свій улов. Їжачок перебіг стежку, а в гаю співали птахи. Бабуся пригостила нас пиріжками з вишнями і розповіла про своє дитинство в селі.",
    ),
    (
        "Greek",
        "Το πρωί περπατήσαμε στην παραλία, όπου οι ψαράδες μάζευαν τα δίχτυα τους. Ο ήλιος έλαμπε πάνω από τη θάλασσα και τα παιδιά έπαιζαν στην άμμο. Το μεσημέρι φάγαμε φρέσκο ψάρι σε μια μικρή ταβέρνα.",
    ),
    (
        "Turkish",
        "Sabah erkenden çarşıya gittik; satıcılar tezgâhlarını kuruyordu. Güneş ışığı camiin kubbesinde parlıyor, martılar limanın üstünde uçuşuyordu. Öğle yemeğinde sıcak pide ve ayran içtik, sonra çay bahçesinde dinlendik.",
    ),
    (
        "Hebrew",
        "בבוקר הלכנו לשוק, והמוכרים כבר סידרו את הדוכנים שלהם. ריח של לחם טרי וקפה מילא את הרחוב. אחר הצהריים ישבנו בגן הציבורי וקראנו ספרים עד שהשמש שקעה מאחורי הגבעות.",
    ),
    (
        "Arabic",
        "في الصباح ذهبنا إلى السوق القديم، حيث كان التجار يعرضون التوابل والأقمشة الملونة. جلسنا في مقهى صغير وشربنا الشاي بالنعناع، ثم تجولنا في الأزقة الضيقة حتى غروب الشمس.",
    ),
    (
        "Lithuanian",
        "Rytą išėjome į mišką, kur dar tvyrojo rūkas. Paukščiai čiulbėjo medžių viršūnėse, o takas vedė prie ežero. Ten sutikome žveją, kuris papasakojo apie didžiausią savo pagautą lydeką.",
    ),
    (
        "Latvian",
        "No rīta mēs devāmies uz jūru, kur zvejnieki jau vilka tīklus krastā. Vējš bija vēss, bet saule spīdēja spoži. Pusdienās ēdām kūpinātu zivi un dzērām siltu tēju ar medu.",
    ),
    (
        "Estonian",
        "Hommikul läksime rabasse, kus õhk oli jahe ja niiske. Laudtee viis üle sookaaslaste ning kaugemal paistis väike järv. Õhtul sõime kodus kartuleid ja hapukapsast ning jõime kuuma teed.",
    ),
    (
        "Vietnamese",
        "Buổi sáng chúng tôi đi chợ, nơi người bán hàng đã bày rau quả tươi. Mùi phở thơm lừng khắp con phố nhỏ. Buổi chiều cả nhà ngồi uống trà và nói chuyện về những ngày xưa ở quê.",
    ),
    (
        "Thai",
        "ตอนเช้าเราไปตลาดน้ำ แม่ค้าพายเรือขายผลไม้และอาหารหลายอย่าง อากาศดีมาก ท้องฟ้าสีฟ้าใส ตอนบ่ายเรานั่งพักที่ร้านกาแฟริมคลองและคุยกันอย่างสนุกสนาน",
    ),
    (
        "Romanian",
        "Dimineața am plecat spre munte, unde aerul era rece și curat. Pe drum am întâlnit un cioban care își păzea oile lângă pârâu. Seara ne-am întors acasă obosiți, dar fericiți că am văzut răsăritul.",
    ),
    (
        "Icelandic",
        "Í morgun gengum við niður að höfninni þar sem bátarnir komu inn með aflann. Veðrið var kalt en sólin skein á fjöllin. Síðdegis drukkum við kaffi og borðuðum pönnukökur með rjóma.",
    ),
    (
        "Welsh",
        "Bore ddoe aethon ni i'r farchnad yn y dref, lle roedd y ffermwyr yn gwerthu caws a bara ffres. Roedd y tywydd yn braf ac roedd plant yn chwarae ger yr afon. Ŵyr fy nghymydog a ddaeth â ŷd i'r ŵyl.",
    ),
    (
        "Maltese",
        "Filgħodu morna s-suq tal-ħut, fejn is-sajjieda kienu qed ibigħu l-qabda tagħhom. Ix-xemx kienet sħuna u l-baħar kien kalm. Għall-ikel kilna ħobż biż-żejt u ġobon friski.",
    ),
    (
        "Chinese (simplified)",
        "早上我们去了城里的市场，摊贩们已经摆好了新鲜的蔬菜和水果。街上飘着包子和豆浆的香味。下午我们在公园里散步，看老人们下棋，孩子们放风筝，一直玩到太阳落山。",
    ),
    (
        "Chinese (traditional)",
        "早上我們去了城裡的市場，攤販們已經擺好了新鮮的蔬菜和水果。街上飄著包子和豆漿的香味。下午我們在公園裡散步，看老人們下棋，孩子們放風箏，一直玩到太陽下山。",
    ),
    (
        "Japanese",
        "朝早く駅前の市場に行くと、店の人たちが新鮮な野菜や魚を並べていました。商店街にはパンとコーヒーの香りが漂っています。午後は公園を散歩して、子どもたちが凧を揚げるのを眺めながら、夕方までのんびり過ごしました。",
    ),
    (
        "Korean",
        "아침 일찍 시장에 갔더니 상인들이 신선한 채소와 과일을 진열하고 있었습니다. 골목에는 빵과 커피 냄새가 가득했습니다. 오후에는 공원을 산책하며 아이들이 연을 날리는 모습을 구경하고 저녁까지 여유롭게 보냈습니다.",
    ),
];
